// The wall clock in milliseconds with performance.now()'s resolution: the one clock a window's start and end, the live
// writer's writes and the probes' sends are compared on.
export const nowMs = () => performance.timeOrigin + performance.now();
