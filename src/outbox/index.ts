// The delivery core: the drainer, the kinds' registry, and the platforms' pause and probe.
export { OutboxDrainer, type DeliveryDeps, type DeliveryOptions, type DrainReport } from './drainer.js';
export type { Delivery, PlatformStatus } from './types.js';
export { KindRegistry, type DeliveryKind } from './registry.js';
export { PlatformGate, type GateOptions } from './platform-gate.js';
export { pruneOutbox } from './prune.js';
