;; The raw reader's walks over the bytes it received (transcode.ts ReplyBuffer), in WebAssembly: XRANGE's reply as the
;; contract's JSON body as it arrives (begin, then step at each chunk: one pass finds its end and writes its body) when
;; every bulk string is printable ASCII but `"` and `\` (each copied as it is); the same walk over a whole reply
;; (xrange); and where a reply of any shape ends (scan). Any other byte, and a reply of another shape, returns -1 (step,
;; xrange) or -2 (scan): the JavaScript walk then does it (escapes, UTF-8, invalid bytes, error replies and their
;; messages), and names what is wrong with a reply that is not strict RESP (every CRLF and length is checked here
;; too: a CR without its LF, a string not followed by CRLF, a minus that is not -1, an odd field count).
;; Compiled by scripts/build-wasm.ts into transcode-wasm.ts.
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

  ;; The header line at $i of type $t: its number (digits only), $next past its CRLF. -1: not such a header (another
  ;; type, a minus, no digits or ten or more); -3: its line has not all arrived.
  (global $next (mut i32) (i32.const 0))
  (func $head (param $i i32) (param $t i32) (param $end i32) (result i32)
    (local $k i32) (local $n i32) (local $c i32)
    (if (i32.ge_u (local.get $i) (local.get $end)) (then (return (i32.const -3))))
    (if (i32.ne (i32.load8_u (local.get $i)) (local.get $t)) (then (return (i32.const -1))))
    (local.set $k (i32.add (local.get $i) (i32.const 1)))
    (block $done
      (loop $digit
        (if (i32.ge_u (local.get $k) (local.get $end)) (then (return (i32.const -3))))
        (local.set $c (i32.load8_u (local.get $k)))
        (br_if $done (i32.eq (local.get $c) (i32.const 13)))
        (local.set $c (i32.sub (local.get $c) (i32.const 48)))
        (if (i32.gt_u (local.get $c) (i32.const 9)) (then (return (i32.const -1))))
        (local.set $n (i32.add (i32.mul (local.get $n) (i32.const 10)) (local.get $c)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $digit)))
    (local.set $c (i32.sub (local.get $k) (local.get $i)))
    (if (i32.or (i32.lt_u (local.get $c) (i32.const 2)) (i32.gt_u (local.get $c) (i32.const 10)))
      (then (return (i32.const -1))))
    (if (i32.ge_u (i32.add (local.get $k) (i32.const 1)) (local.get $end)) (then (return (i32.const -3))))
    (if (i32.ne (i32.load8_u (i32.add (local.get $k) (i32.const 1))) (i32.const 10)) (then (return (i32.const -1))))
    (global.set $next (i32.add (local.get $k) (i32.const 2)))
    (local.get $n))

  ;; The bulk string at $i as a JSON string literal in the body at $p: where the reply goes on after it ($next: where
  ;; the body does). -1: a byte the JavaScript walk takes, or no bulk string; -3: it has not all arrived.
  (func $str (param $i i32) (param $p i32) (param $end i32) (result i32)
    (local $b i32) (local $c i32) (local $n i32)
    ;; Its header, as $head reads it, inline: a string's framing costs as much as its bytes here.
    (if (i32.ge_u (local.get $i) (local.get $end)) (then (return (i32.const -3))))
    (if (i32.ne (i32.load8_u (local.get $i)) (i32.const 36)) (then (return (i32.const -1))))
    (local.set $b (i32.add (local.get $i) (i32.const 1)))
    (block $done
      (loop $digit
        (if (i32.ge_u (local.get $b) (local.get $end)) (then (return (i32.const -3))))
        (local.set $c (i32.load8_u (local.get $b)))
        (br_if $done (i32.eq (local.get $c) (i32.const 13)))
        (local.set $c (i32.sub (local.get $c) (i32.const 48)))
        (if (i32.gt_u (local.get $c) (i32.const 9)) (then (return (i32.const -1))))
        (local.set $n (i32.add (i32.mul (local.get $n) (i32.const 10)) (local.get $c)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $digit)))
    (local.set $c (i32.sub (local.get $b) (local.get $i)))
    (if (i32.or (i32.lt_u (local.get $c) (i32.const 2)) (i32.gt_u (local.get $c) (i32.const 10)))
      (then (return (i32.const -1))))
    ;; A string of a MiB or more is the JavaScript scan's, which holds it to the size cap before its bytes come.
    (if (i32.gt_u (local.get $n) (i32.const 0xfffff)) (then (return (i32.const -1))))
    (local.set $i (i32.add (local.get $b) (i32.const 2)))
    (local.set $b (i32.add (local.get $i) (local.get $n)))
    (if (i32.gt_u (i32.add (local.get $b) (i32.const 2)) (local.get $end)) (then (return (i32.const -3))))
    ;; Strict framing: LF after the header's CR, and CRLF right after the string's bytes.
    (if (i32.or (i32.ne (i32.load8_u (i32.sub (local.get $i) (i32.const 1))) (i32.const 10))
          (i32.ne (i32.load16_u (local.get $b)) (i32.const 0x0a0d)))
      (then (return (i32.const -1))))
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
    (global.set $next (i32.add (local.get $p) (i32.const 1)))
    (i32.add (local.get $b) (i32.const 2)))

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
            (if (i32.or (i32.ne (i32.load16_u (local.get $i)) (i32.const 0x0a0d))
                  (i32.or (i32.eqz (local.get $digits)) (i32.gt_u (local.get $digits) (i32.const 9))))
              (then (return (i32.const -2))))
            ;; A minus is only -1 (a nil).
            (if (i32.and (local.get $neg) (i32.ne (local.get $n) (i32.const 1))) (then (return (i32.const -2))))
            (local.set $next (i32.add (local.get $i) (i32.const 2)))
            (if (i32.eq (local.get $type) (i32.const 36))
              (then
                ;; A bulk string's bytes and their CRLF must have arrived too ($-1: none); one of a MiB or more is
                ;; the JavaScript scan's, which holds it to the size cap.
                (if (i32.gt_u (local.get $n) (i32.const 0xfffff)) (then (return (i32.const -2))))
                (if (i32.eqz (local.get $neg))
                  (then
                    (local.set $next (i32.add (i32.add (local.get $next) (local.get $n)) (i32.const 2)))
                    (br_if $stop (i32.gt_u (local.get $next) (local.get $len)))
                    (if (i32.ne (i32.load16_u (i32.sub (local.get $next) (i32.const 2))) (i32.const 0x0a0d))
                      (then (return (i32.const -2))))))
                (local.set $pending (i32.sub (local.get $pending) (i32.const 1))))
              (else
                (local.set $pending (i32.sub (i32.add (local.get $pending)
                  (select (i32.const 0) (local.get $n) (local.get $neg))) (i32.const 1)))
                ;; Counts that could wrap past 2^31 are the JavaScript scan's (which holds them to the size cap).
                (if (i32.gt_u (local.get $pending) (i32.const 0x1000000)) (then (return (i32.const -2)))))))
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
            (if (i32.ne (i32.load8_u (i32.add (local.get $i) (i32.const 1))) (i32.const 10)) (then (return (i32.const -2))))
            (local.set $next (i32.add (local.get $i) (i32.const 2)))
            (local.set $pending (i32.sub (local.get $pending) (i32.const 1)))))
        (local.set $pos (local.get $next))
        (br $header)))
    (global.set $pending (local.get $pending))
    (local.get $pos))

;; The walk of one XRANGE reply, in as many calls of step as its chunks take: what comes next ($state: 0 the reply's
  ;; array, 1 an entry's, 2 its id, 3 its fields' array, 4 a field or a value), the entries ($entries, $e done) and the
  ;; fields' strings of the entry ($kv, $j done), and where the body started ($out).
  (global $state (mut i32) (i32.const 0))
  (global $entries (mut i32) (i32.const 0))
  (global $e (mut i32) (i32.const 0))
  (global $kv (mut i32) (i32.const 0))
  (global $j (mut i32) (i32.const 0))
  (global $out (mut i32) (i32.const 0))

  ;; A reply starts at $in, its body to be written at $out.
  (func $begin (export "begin") (param $in i32) (param $out i32)
    (global.set $i (local.get $in))
    (global.set $p (local.get $out))
    (global.set $out (local.get $out))
    (global.set $state (i32.const 0))
    (global.set $e (i32.const 0)))

  ;; Where the walk is in the received bytes: one past the reply's end once step returned its body.
  (func (export "at") (result i32) (global.get $i))

  ;; The received bytes moved $d towards the start (the bytes before the reply were taken): the walk goes on there.
  (func (export "shift") (param $d i32) (global.set $i (i32.sub (global.get $i) (local.get $d))))

  ;; Walks the reply on over what has arrived (up to $end), a header or a whole bulk string at a time: the body's
  ;; length once the reply is complete; -3 while bytes are missing (the walk stops before the first header or string
  ;; not all arrived, and goes on from there at the next call); -1 at a byte of another kind or a reply of another
  ;; shape (the JavaScript walk's, from the reply's start). The walk's state is in locals while it runs.
  (func $step (export "step") (param $end i32) (result i32)
    (local $i i32) (local $p i32) (local $state i32) (local $e i32) (local $j i32) (local $kv i32)
    (local $r i32) (local $p0 i32)
    (local.set $i (global.get $i))
    (local.set $p (global.get $p))
    (local.set $state (global.get $state))
    (local.set $e (global.get $e))
    (local.set $j (global.get $j))
    (local.set $kv (global.get $kv))
    (block $exit
      (block $fail
        (if (i32.eqz (local.get $state))
          (then
            (local.set $p0 (local.get $p))
            (local.set $r (call $head (local.get $i) (i32.const 42) (local.get $end)))
            (br_if $fail (i32.lt_s (local.get $r) (i32.const 0)))
            (local.set $i (global.get $next))
            (global.set $entries (local.get $r))
            (memory.copy (local.get $p) (i32.const 256) (i32.const 12))
            (local.set $p (i32.add (local.get $p) (i32.const 12)))
            (local.set $state (i32.const 1))))
        (if (global.get $entries)
          (then
            (loop $entry
              (if (i32.eq (local.get $state) (i32.const 1))
                (then
                  (local.set $p0 (local.get $p))
                  (local.set $r (call $head (local.get $i) (i32.const 42) (local.get $end)))
                  (br_if $fail (i32.lt_s (local.get $r) (i32.const 0)))
                  (if (i32.ne (local.get $r) (i32.const 2)) (then (local.set $r (i32.const -1)) (br $fail)))
                  (local.set $i (global.get $next))
                  (if (local.get $e)
                    (then
                      (i32.store8 (local.get $p) (i32.const 44))
                      (local.set $p (i32.add (local.get $p) (i32.const 1)))))
                  (memory.copy (local.get $p) (i32.const 268) (i32.const 6))
                  (local.set $p (i32.add (local.get $p) (i32.const 6)))
                  (local.set $state (i32.const 2))))
              (if (i32.eq (local.get $state) (i32.const 2))
                (then
                  (local.set $p0 (local.get $p))
                  (local.set $r (call $str (local.get $i) (local.get $p) (local.get $end)))
                  (br_if $fail (i32.lt_s (local.get $r) (i32.const 0)))
                  (local.set $i (local.get $r))
                  (local.set $p (global.get $next))
                  (memory.copy (local.get $p) (i32.const 274) (i32.const 11))
                  (local.set $p (i32.add (local.get $p) (i32.const 11)))
                  (local.set $state (i32.const 3))))
              (if (i32.eq (local.get $state) (i32.const 3))
                (then
                  (local.set $p0 (local.get $p))
                  (local.set $r (call $head (local.get $i) (i32.const 42) (local.get $end)))
                  (br_if $fail (i32.lt_s (local.get $r) (i32.const 0)))
                  (local.set $i (global.get $next))
                  (local.set $kv (local.get $r))
                  ;; Fields and values come in pairs: an odd count is a reply of another shape.
                  (if (i32.and (local.get $kv) (i32.const 1)) (then (local.set $r (i32.const -1)) (br $fail)))
                  (local.set $j (i32.const 0))
                  (local.set $state (i32.const 4))))
              ;; The entry's fields and values: between a field and its value a colon, between pairs a comma.
              (block $fields
                (loop $field
                  (br_if $fields (i32.ge_u (local.get $j) (local.get $kv)))
                  (local.set $p0 (local.get $p))
                  (if (local.get $j)
                    (then
                      (i32.store8 (local.get $p)
                        (select (i32.const 58) (i32.const 44) (i32.and (local.get $j) (i32.const 1))))
                      (local.set $p (i32.add (local.get $p) (i32.const 1)))))
                  (local.set $r (call $str (local.get $i) (local.get $p) (local.get $end)))
                  (br_if $fail (i32.lt_s (local.get $r) (i32.const 0)))
                  (local.set $i (local.get $r))
                  (local.set $p (global.get $next))
                  (local.set $j (i32.add (local.get $j) (i32.const 1)))
                  (br $field)))
              (i32.store16 (local.get $p) (i32.const 0x7d7d))
              (local.set $p (i32.add (local.get $p) (i32.const 2)))
              (local.set $e (i32.add (local.get $e) (i32.const 1)))
              (local.set $state (i32.const 1))
              (br_if $entry (i32.lt_u (local.get $e) (global.get $entries))))))
        ;; ]} and the body's length.
        (i32.store16 (local.get $p) (i32.const 0x7d5d))
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (local.set $r (i32.sub (local.get $p) (global.get $out)))
        (br $exit))
      ;; Not all arrived: the body as it was before this header or string, which the next call walks again.
      (local.set $p (local.get $p0)))
    (global.set $i (local.get $i))
    (global.set $p (local.get $p))
    (global.set $state (local.get $state))
    (global.set $e (local.get $e))
    (global.set $j (local.get $j))
    (global.set $kv (local.get $kv))
    (local.get $r))

  ;; The whole reply in [$in, $in + $len) as the body at $out: the body's length, or -1 (the JavaScript walk's).
  (func (export "xrange") (param $in i32) (param $len i32) (param $out i32) (result i32)
    (local $n i32) (local $end i32)
    (local.set $end (i32.add (local.get $in) (local.get $len)))
    (call $begin (local.get $in) (local.get $out))
    (local.set $n (call $step (local.get $end)))
    (if (i32.or (i32.lt_s (local.get $n) (i32.const 0)) (i32.ne (global.get $i) (local.get $end)))
      (then (return (i32.const -1))))
    (local.get $n))
)
