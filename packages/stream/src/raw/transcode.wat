;; The raw reader's walks over the bytes it received (transcode.ts ReplyBuffer), in WebAssembly: where a reply ends
;; (scan), and XRANGE's reply as the contract's JSON body (xrange) when every bulk string is printable ASCII but `"`
;; and `\` (each copied as it is). Any other byte, and a reply of another shape, returns -1 (xrange) or -2 (scan): the
;; JavaScript walk then does it (escapes, UTF-8, invalid bytes, error replies and their messages). Compiled by
;; scripts/build-wasm.ts into transcode-wasm.ts.
;;
;; Memory: bytes 0-255 say which bytes are copied as they are (1) and which the JavaScript walk takes (0), written by
;; the caller at start (transcode.ts SAFE); from 256, the body's constant parts; from 512, the bytes received (written
;; by the caller), and after their room the body (at most twice the reply's length, with the constants; the caller
;; makes room).
(module
  (memory (export "memory") 4)
  (data (i32.const 256) "{\"entries\":[{\"id\":,\"fields\":{")
  ;; Where the walk is in the reply ($i) and in the body ($p).
  (global $i (mut i32) (i32.const 0))
  (global $p (mut i32) (i32.const 0))

  ;; The number of the header whose type byte is at $i (digits only); $i past its CRLF. -1: no digits' line.
  (func $num (param $end i32) (result i32)
    (local $i i32) (local $n i32) (local $c i32)
    (local.set $i (i32.add (global.get $i) (i32.const 1)))
    (block $done
      (loop $digit
        (if (i32.ge_u (local.get $i) (local.get $end)) (then (return (i32.const -1))))
        (local.set $c (i32.load8_u (local.get $i)))
        (br_if $done (i32.eq (local.get $c) (i32.const 13)))
        (local.set $c (i32.sub (local.get $c) (i32.const 48)))
        (if (i32.gt_u (local.get $c) (i32.const 9)) (then (return (i32.const -1))))
        (local.set $n (i32.add (i32.mul (local.get $n) (i32.const 10)) (local.get $c)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $digit)))
    (global.set $i (i32.add (local.get $i) (i32.const 2)))
    (local.get $n))

  ;; The array header at $i: its number, or -1.
  (func $array (param $end i32) (result i32)
    (if (i32.ge_u (global.get $i) (local.get $end)) (then (return (i32.const -1))))
    (if (i32.ne (i32.load8_u (global.get $i)) (i32.const 42)) (then (return (i32.const -1))))
    (call $num (local.get $end)))

  ;; $n bytes of the constants from $src into the body.
  (func $lit (param $src i32) (param $n i32)
    (memory.copy (global.get $p) (local.get $src) (local.get $n))
    (global.set $p (i32.add (global.get $p) (local.get $n))))

  (func $byte (param $b i32)
    (i32.store8 (global.get $p) (local.get $b))
    (global.set $p (i32.add (global.get $p) (i32.const 1))))

  ;; The bulk string at $i as a JSON string literal in the body. -1: a byte the JavaScript walk takes, or no bulk string.
  (func $str (param $end i32) (result i32)
    (local $i i32) (local $b i32) (local $p i32) (local $c i32) (local $n i32)
    (if (i32.ge_u (global.get $i) (local.get $end)) (then (return (i32.const -1))))
    (if (i32.ne (i32.load8_u (global.get $i)) (i32.const 36)) (then (return (i32.const -1))))
    (local.set $n (call $num (local.get $end)))
    (if (i32.lt_s (local.get $n) (i32.const 0)) (then (return (i32.const -1))))
    (local.set $i (global.get $i))
    (local.set $b (i32.add (local.get $i) (local.get $n)))
    (if (i32.gt_u (i32.add (local.get $b) (i32.const 2)) (local.get $end)) (then (return (i32.const -1))))
    (local.set $p (global.get $p))
    (i32.store8 (local.get $p) (i32.const 34))
    (local.set $p (i32.add (local.get $p) (i32.const 1)))
    (block $done
      (loop $copy
        (br_if $done (i32.ge_u (local.get $i) (local.get $b)))
        (local.set $c (i32.load8_u (local.get $i)))
        (if (i32.eqz (i32.load8_u (local.get $c))) (then (return (i32.const -1))))
        (i32.store8 (local.get $p) (local.get $c))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $copy)))
    (i32.store8 (local.get $p) (i32.const 34))
    (global.set $p (i32.add (local.get $p) (i32.const 1)))
    (global.set $i (i32.add (local.get $b) (i32.const 2)))
    (i32.const 0))

  ;; Where the reply's headers are still pending (scan): 0 once the reply is complete.
  (global $pending (mut i32) (i32.const 1))
  (func (export "pending") (result i32) (global.get $pending))

  ;; Walks a reply's headers from $pos over what has arrived ([$pos, $len)), $pending of them still to come: where the
  ;; walk stopped (one past the reply's end once $pending is 0; else the start of the first header or bulk string
  ;; still missing bytes). -2: bytes RESP does not have there, or a number of ten digits or more (the JavaScript scan
  ;; takes them, and names what is wrong).
  (func (export "scan") (param $pos i32) (param $len i32) (param $pending i32) (result i32)
    (local $type i32) (local $i i32) (local $c i32) (local $n i32) (local $neg i32) (local $digits i32) (local $next i32)
    (block $stop
      (loop $header
        (br_if $stop (i32.le_s (local.get $pending) (i32.const 0)))
        (br_if $stop (i32.ge_u (local.get $pos) (local.get $len)))
        (local.set $type (i32.load8_u (local.get $pos)))
        (local.set $i (i32.add (local.get $pos) (i32.const 1)))
        (if (i32.or (i32.eq (local.get $type) (i32.const 36)) (i32.eq (local.get $type) (i32.const 42)))
          (then
            ;; $ and *: an optional minus, then digits up to the line's CR.
            (local.set $neg (i32.const 0))
            (if (i32.lt_u (local.get $i) (local.get $len))
              (then (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 45))
                (then
                  (local.set $neg (i32.const 1))
                  (local.set $i (i32.add (local.get $i) (i32.const 1)))))))
            (local.set $n (i32.const 0))
            (local.set $digits (i32.const 0))
            (block $number
              (loop $digit
                ;; The CR and its LF must have arrived.
                (br_if $stop (i32.ge_u (i32.add (local.get $i) (i32.const 1)) (local.get $len)))
                (local.set $c (i32.sub (i32.load8_u (local.get $i)) (i32.const 48)))
                (br_if $number (i32.gt_u (local.get $c) (i32.const 9)))
                (local.set $n (i32.add (i32.mul (local.get $n) (i32.const 10)) (local.get $c)))
                (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $digit)))
            (if (i32.or (i32.ne (i32.load8_u (local.get $i)) (i32.const 13))
                  (i32.or (i32.eqz (local.get $digits)) (i32.gt_u (local.get $digits) (i32.const 9))))
              (then (return (i32.const -2))))
            (local.set $next (i32.add (local.get $i) (i32.const 2)))
            (if (i32.eq (local.get $type) (i32.const 36))
              (then
                ;; A bulk string's bytes and their CRLF must have arrived too ($-1: none).
                (if (i32.eqz (local.get $neg))
                  (then
                    (local.set $next (i32.add (i32.add (local.get $next) (local.get $n)) (i32.const 2)))
                    (br_if $stop (i32.gt_u (local.get $next) (local.get $len)))))
                (local.set $pending (i32.sub (local.get $pending) (i32.const 1))))
              (else
                (local.set $pending (i32.sub (i32.add (local.get $pending)
                  (select (i32.const 0) (local.get $n) (local.get $neg))) (i32.const 1))))))
          (else
            ;; + - : _ : a line of its own, up to its CR.
            (if (i32.eqz (i32.or (i32.or (i32.eq (local.get $type) (i32.const 43)) (i32.eq (local.get $type) (i32.const 45)))
                  (i32.or (i32.eq (local.get $type) (i32.const 58)) (i32.eq (local.get $type) (i32.const 95)))))
              (then (return (i32.const -2))))
            (block $eol
              (loop $byte
                (br_if $stop (i32.ge_u (i32.add (local.get $i) (i32.const 1)) (local.get $len)))
                (br_if $eol (i32.eq (i32.load8_u (local.get $i)) (i32.const 13)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $byte)))
            (local.set $next (i32.add (local.get $i) (i32.const 2)))
            (local.set $pending (i32.sub (local.get $pending) (i32.const 1)))))
        (local.set $pos (local.get $next))
        (br $header)))
    (global.set $pending (local.get $pending))
    (local.get $pos))

  ;; The reply in [$in, $in + $len) as the body at $out: the body's length, or -1 (the JavaScript walk's).
  (func (export "xrange") (param $in i32) (param $len i32) (param $out i32) (result i32)
    (local $end i32) (local $entries i32) (local $e i32) (local $kv i32) (local $j i32)
    (local.set $end (i32.add (local.get $in) (local.get $len)))
    (global.set $i (local.get $in))
    (global.set $p (local.get $out))
    (local.set $entries (call $array (local.get $end)))
    (if (i32.lt_s (local.get $entries) (i32.const 0)) (then (return (i32.const -1))))
    (call $lit (i32.const 256) (i32.const 12))
    (block $entriesDone
      (loop $entry
        (br_if $entriesDone (i32.ge_u (local.get $e) (local.get $entries)))
        (if (local.get $e) (then (call $byte (i32.const 44))))
        (if (i32.ne (call $array (local.get $end)) (i32.const 2)) (then (return (i32.const -1))))
        (call $lit (i32.const 268) (i32.const 6))
        (if (i32.lt_s (call $str (local.get $end)) (i32.const 0)) (then (return (i32.const -1))))
        (call $lit (i32.const 274) (i32.const 11))
        (local.set $kv (call $array (local.get $end)))
        (if (i32.lt_s (local.get $kv) (i32.const 0)) (then (return (i32.const -1))))
        (local.set $j (i32.const 0))
        (block $fieldsDone
          (loop $field
            (br_if $fieldsDone (i32.ge_u (local.get $j) (local.get $kv)))
            ;; Between a field and its value a colon, between pairs a comma.
            (if (local.get $j)
              (then (call $byte (select (i32.const 58) (i32.const 44) (i32.and (local.get $j) (i32.const 1))))))
            (if (i32.lt_s (call $str (local.get $end)) (i32.const 0)) (then (return (i32.const -1))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $field)))
        (call $byte (i32.const 125))
        (call $byte (i32.const 125))
        (local.set $e (i32.add (local.get $e) (i32.const 1)))
        (br $entry)))
    (call $byte (i32.const 93))
    (call $byte (i32.const 125))
    (if (i32.ne (global.get $i) (local.get $end)) (then (return (i32.const -1))))
    (i32.sub (global.get $p) (local.get $out)))
)
