// What a run finds of the machine it runs on beyond Node's os module: the CPU model name where os.cpus() has none
// (Linux arm64), and the browser that draws report.png, found by the harness as scripts/setup.sh finds it.
import { afterAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuModelName } from '../../packages/harness/src/measure/environment';
import { BROWSER_NAMES, findBrowser, NO_BROWSER } from '../../packages/harness/src/report/browser';
import { ROOT } from '../../packages/harness/src/system/paths';

/** /proc/cpuinfo of an AWS Graviton2 (Neoverse N1) with 2 vCPUs: no "model name" line on arm64. */
const GRAVITON2_CORE = `BogoMIPS\t: 243.75
Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp ssbs
CPU implementer\t: 0x41
CPU architecture: 8
CPU variant\t: 0x3
CPU part\t: 0xd0c
CPU revision\t: 1
`;
const GRAVITON2_CPUINFO = [0, 1].map((n) => `processor\t: ${n}\n${GRAVITON2_CORE}`).join('\n');

/** lscpu (util-linux 2.39, as on Ubuntu 24.04) on the same machine: the core named, and the BIOS's name indented. */
const GRAVITON2_LSCPU = `Architecture:             aarch64
  CPU op-mode(s):         32-bit, 64-bit
  Byte Order:             Little Endian
CPU(s):                   2
  On-line CPU(s) list:    0,1
Vendor ID:                ARM
  BIOS Vendor ID:         AWS
  Model name:             Neoverse-N1
    BIOS Model name:      AWS Graviton2 Processor
    BIOS CPU family:      1
    Model:                1
    Thread(s) per core:   1
    Core(s) per socket:   2
    Socket(s):            1
    Stepping:             r3p1
    BogoMIPS:             243.75
    Flags:                fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop
                           asimddp ssbs
Caches (sum of all):
  L1d:                    128 KiB (2 instances)
  L1i:                    128 KiB (2 instances)
  L2:                     2 MiB (2 instances)
  L3:                     32 MiB (1 instance)
`;

/** An older lscpu's flat lines (util-linux 2.34), the BIOS's name first. */
const FLAT_LSCPU = `Architecture:                    aarch64
Vendor ID:                       ARM
BIOS Model name:                 AWS Graviton2 Processor
Model name:                      Neoverse-N1
Model:                           1
`;

const X86_CPUINFO = `processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 1
model name\t: AMD EPYC 7763 64-Core Processor
stepping\t: 1
`;

describe('the CPU model name', () => {
  test('arm64: "unknown" from os.cpus() is named by lscpu, Neoverse-N1', () => {
    expect(cpuModelName('unknown', GRAVITON2_CPUINFO, () => GRAVITON2_LSCPU)).toBe('Neoverse-N1');
    expect(cpuModelName('', GRAVITON2_CPUINFO, () => FLAT_LSCPU)).toBe('Neoverse-N1');
    expect(cpuModelName(undefined, GRAVITON2_CPUINFO, () => GRAVITON2_LSCPU)).toBe('Neoverse-N1');
  });

  test('arm64 without lscpu: the implementer and part of /proc/cpuinfo, ARM part 0xd0c', () => {
    expect(cpuModelName('unknown', GRAVITON2_CPUINFO, () => '')).toBe('ARM part 0xd0c');
    expect(cpuModelName('unknown', GRAVITON2_CPUINFO, () => 'Model name: -\n')).toBe('ARM part 0xd0c');
    const other = GRAVITON2_CPUINFO.replaceAll('0x41', '0x99');
    expect(cpuModelName('unknown', other, () => '')).toBe('implementer 0x99 part 0xd0c');
  });

  test("x86: /proc/cpuinfo's model name where os.cpus() has none; a named model is kept as reported", () => {
    expect(cpuModelName('unknown', X86_CPUINFO, () => GRAVITON2_LSCPU)).toBe('AMD EPYC 7763 64-Core Processor');
    let asked = false;
    const lscpu = () => ((asked = true), GRAVITON2_LSCPU);
    expect(cpuModelName('AMD EPYC 7763 64-Core Processor', GRAVITON2_CPUINFO, lscpu)).toBe(
      'AMD EPYC 7763 64-Core Processor',
    );
    expect(asked).toBe(false);
    expect(cpuModelName('unknown', '', () => '')).toBe('unknown');
  });
});

describe('the browser for report.png', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  /** A PATH folder of the given executables, each a script with the given text. */
  function folder(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'browser-'));
    made.push(dir);
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(dir, name), text);
      chmodSync(join(dir, name), 0o755);
    }
    return dir;
  }
  /** Ubuntu's chromium-browser: a transition script to the chromium snap. */
  const SNAP_WRAPPER = '#!/bin/sh\nif ! [ -x /snap/bin/chromium ]; then exit 1; fi\nexec /snap/bin/chromium "$@"\n';
  const CHROME = '#!/bin/bash\nexport CHROME_WRAPPER="`readlink -f "$0"`"\nexec "$HERE/chrome" "$@"\n';

  test("Ubuntu's snap chromium-browser is passed over for Google Chrome; setup.sh finds the same", () => {
    const dir = folder({ 'chromium-browser': SNAP_WRAPPER, 'google-chrome': CHROME });
    expect(findBrowser({ PATH: `/nonexistent:${dir}` })).toBe(join(dir, 'google-chrome'));
    expect(findBrowser({ PATH: dir, CHROMIUM_PATH: '/opt/mine/chrome' })).toBe('/opt/mine/chrome');
    // setup.sh's find_browser on the same PATH, with only the tools it needs beside it.
    const tools = join(dir, 'tools');
    mkdirSync(tools);
    for (const t of ['dirname', 'uname', 'readlink', 'head', 'grep']) {
      const at = spawnSync('bash', ['-c', `type -P ${t}`], { encoding: 'utf8' }).stdout.trim();
      symlinkSync(at, join(tools, t));
    }
    const script = `source scripts/setup.sh; PATH=${dir}:${tools}; find_browser`;
    const setup = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8' });
    expect(setup.stdout.trim()).toBe(join(dir, 'google-chrome'));
  });

  test('no browser: none found, and the reason names how to install one', () => {
    expect(findBrowser({ PATH: folder({ 'chromium-browser': SNAP_WRAPPER }) })).toBeNull();
    expect(NO_BROWSER).toContain('apt-get install chromium');
    expect(NO_BROWSER).toContain('CHROMIUM_PATH');
    const setup = readFileSync(join(ROOT, 'scripts/setup.sh'), 'utf8');
    expect(setup).toContain(`for name in ${BROWSER_NAMES.join(' ')}; do`);
  });
});
