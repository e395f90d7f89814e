// cluster-key-slot 1.1.1 ships no types: cluster.ts files each key under the primary owning its slot.
declare module 'cluster-key-slot' {
  /** The key's hash slot (CRC16 of its hash tag, or of the whole key, mod 16384). */
  export default function keySlot(key: string): number;
}
