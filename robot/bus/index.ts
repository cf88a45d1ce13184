// The bus: topics, messages (defined once; the parceiro_msgs interface package is generated from them), and the
// in-process and ROS 2 implementations.
export type { Bus, BusEntry, BusErrorHandler, NodeParameter, ParameterValues, Unsubscribe } from './bus.js';
export { InProcessBus } from './in-process-bus.js';
export { ForwardingBus } from './forwarding-bus.js';
export { Ros2UnavailableError, SOURCE_ROS_HINT, createRos2Bus } from './ros2-bus.js';
export type {
  ParameterChange,
  RclNodeLike,
  RclParameterLike,
  RclnodejsLike,
  Ros2BusOptions,
  Ros2NodeBus,
} from './ros2-bus.js';
export { messageKey, plainMessage } from './shape.js';
export * from './messages.js';
export * from './topics.js';
export { checkMessage, describeField, jsonSchemaOf, toMsgFile } from './spec.js';
export { GENERATED_HEADER, parceiroMsgFiles } from './msg-files.js';
export type { FieldType, MessageOf, MessageSpec, RosPrimitive } from './spec.js';
