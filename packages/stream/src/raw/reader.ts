// The raw reader is a package of its own, packages/raw-reader (an app of yours takes it from there: docs/your-app.md).
// This file keeps the path the stream package's core imports it by: the contenders that do not run it keep the inputs
// their kept runs recorded (harness run/inputs.ts), so those runs still pool.
export * from '../../../raw-reader/src/reader.ts';
