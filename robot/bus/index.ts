// The bus: topics, messages (defined once; the parceiro_msgs interface package is generated from them), and the
// in-process and ROS 2 implementations.
export type { Bus, BusEntry, BusErrorHandler, NodeParameter, ParameterValues, Unsubscribe } from './bus.js';
export { InProcessBus } from './in-process-bus.js';
export { Ros2UnavailableError, createRos2Bus } from './ros2-bus.js';
export type { RclnodejsLike } from './ros2-bus.js';
export * from './messages.js';
export * from './topics.js';
export { checkMessage, describeField, jsonSchemaOf, toMsgFile } from './spec.js';
export { GENERATED_HEADER, parceiroMsgFiles } from './msg-files.js';
export type { MessageOf, MessageSpec } from './spec.js';
