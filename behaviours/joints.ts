// EMYS's 11 joints and their hardware limits. Angles in degrees, eye protrusion in millimetres (the
// units of EMYS's documentation and of config/postures.yaml); messages convert to radians and metres.

export const JOINTS = [
  'neckPitch',
  'headYaw',
  'headPitch',
  'lowerDisc',
  'upperDisc',
  'leftEyelid',
  'rightEyelid',
  'leftEyebrow',
  'rightEyebrow',
  'leftEyeProtrusion',
  'rightEyeProtrusion',
] as const;

export type JointName = (typeof JOINTS)[number];

interface JointRange {
  min: number;
  max: number;
}

export type JointLimits = Readonly<Record<JointName, JointRange>>;

/** EMYS's mechanical limits. A robot's own limits (config/postures.yaml) may be narrower, never wider. */
export const EMYS_LIMITS: JointLimits = {
  neckPitch: { min: -20, max: 30 },
  headYaw: { min: -90, max: 90 },
  headPitch: { min: -6, max: 29 },
  lowerDisc: { min: -16, max: 5 },
  upperDisc: { min: -7, max: 15 },
  leftEyelid: { min: 0, max: 120 },
  rightEyelid: { min: 0, max: 120 },
  leftEyebrow: { min: -45, max: 45 },
  rightEyebrow: { min: -45, max: 45 },
  leftEyeProtrusion: { min: 0, max: 100 },
  rightEyeProtrusion: { min: 0, max: 100 },
};

/** Gaze owns these two; expressions move the others, so a face never fights the look. */
export const GAZE_JOINTS: readonly JointName[] = ['headYaw', 'headPitch'];
export const EXPRESSION_JOINTS: readonly JointName[] = JOINTS.filter((j) => !GAZE_JOINTS.includes(j));

export const jointUnit = (joint: JointName): 'deg' | 'mm' => (joint.endsWith('Protrusion') ? 'mm' : 'deg');

export const clampJoint = (limits: JointLimits, joint: JointName, value: number): number =>
  Math.min(limits[joint].max, Math.max(limits[joint].min, value));

export const withinLimits = (limits: JointLimits, joint: JointName, value: number): boolean =>
  Number.isFinite(value) && value >= limits[joint].min && value <= limits[joint].max;

/** ROS joint names (snake_case) for the joint-trajectory message. */
export const rosJointName = (joint: JointName): string => joint.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** REP-103 units for messages: radians for angles, metres for the eye protrusion. */
export const toSi = (joint: JointName, value: number): number =>
  jointUnit(joint) === 'mm' ? value / 1000 : (value * Math.PI) / 180;
