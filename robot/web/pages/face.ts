// EMYS's face as an SVG drawing, driven by the joint targets of /emys/joint_trajectory (degrees and
// millimetres, as in config/postures.yaml): the lower and upper discs, the head's yaw and pitch, the
// neck, the eyelids (0 closed .. 120 wide open), the eyebrows and the eyes' protrusion. Each change
// animates over the trajectory's own time, as the robot does.

const NS = 'http://www.w3.org/2000/svg';

const el = <K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  parent?: Element,
): SVGElementTagNameMap[K] => {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent?.appendChild(e);
  return e;
};

const NEUTRAL: Record<string, number> = {
  neck_pitch: 0,
  head_yaw: 0,
  head_pitch: 0,
  lower_disc: 0,
  upper_disc: 0,
  left_eyelid: 75,
  right_eyelid: 75,
  left_eyebrow: 0,
  right_eyebrow: 0,
  left_eye_protrusion: 20,
  right_eye_protrusion: 20,
};

/**
 * How far each expression joint may stray from neutral (config/postures.yaml's limits). On a drawing
 * a few centimetres wide, the small moves of a weak expression (a hope at 3 of 10 moves the discs by a
 * millimetre) are lost: happy and neutral looked the same. A move is drawn as sqrt(move / range) of
 * the range, so a tenth of the way reads as a third, and the apex stays the apex.
 */
const RANGE: Record<string, number> = {
  lower_disc: 16,
  upper_disc: 15,
  left_eyelid: 75,
  right_eyelid: 75,
  left_eyebrow: 45,
  right_eyebrow: 45,
  left_eye_protrusion: 80,
  right_eye_protrusion: 80,
};
const legible = (name: string, v: number): number => {
  const r = RANGE[name];
  const n = NEUTRAL[name] ?? 0;
  if (r === undefined) return v;
  const d = Math.max(-1, Math.min(1, (v - n) / r));
  return n + Math.sign(d) * Math.sqrt(Math.abs(d)) * r;
};

/** The mouth's shape for each expression (EMYS has none: on the page it tells the faces apart at any strength). */
const MOUTH: Record<string, { curve: number; open: number }> = {
  neutral: { curve: 0, open: 0 },
  happy: { curve: 1, open: 0 },
  sad: { curve: -1, open: 0 },
  angry: { curve: -0.6, open: 0 },
  disgusted: { curve: -0.4, open: 0 },
  surprised: { curve: 0, open: 1 },
  scared: { curve: -0.3, open: 0.6 },
};

export class EmysFace {
  readonly svg: SVGSVGElement;
  readonly #head: SVGGElement;
  readonly #lower: SVGGElement;
  readonly #upper: SVGGElement;
  readonly #eyes: {
    ball: SVGGElement;
    lid: SVGRectElement;
    brow: SVGLineElement;
    pupil: SVGCircleElement;
    side: 1 | -1;
  }[] = [];
  #joints: Record<string, number> = { ...NEUTRAL };
  readonly #mouth: SVGPathElement;

  constructor(parent: HTMLElement) {
    this.svg = el('svg', { viewBox: '0 0 220 220', role: 'img', 'aria-label': "EMYS's face", class: 'face' });
    parent.appendChild(this.svg);
    el('rect', { x: 95, y: 170, width: 30, height: 50, rx: 6, class: 'neck' }, this.svg);
    this.#head = el('g', { class: 'moves' }, this.svg);
    this.#upper = el('g', { class: 'moves' }, this.#head);
    el('ellipse', { cx: 110, cy: 52, rx: 82, ry: 22, class: 'disc' }, this.#upper);
    el('ellipse', { cx: 110, cy: 48, rx: 60, ry: 10, class: 'disc-top' }, this.#upper);
    el('ellipse', { cx: 110, cy: 105, rx: 70, ry: 34, class: 'middle' }, this.#head);
    this.#lower = el('g', { class: 'moves' }, this.#head);
    el('ellipse', { cx: 110, cy: 158, rx: 82, ry: 22, class: 'disc' }, this.#lower);
    // On the lower disc, so it moves with it (the disc opening is EMYS's own smile).
    this.#mouth = el('path', { d: mouthPath(0, 0), class: 'mouth' }, this.#lower);
    for (const side of [-1, 1] as const) {
      const cx = 110 + side * 34;
      const eye = el('g', {}, this.#head);
      const ball = el('g', { class: 'moves' }, eye);
      const clipId = `lid-${side < 0 ? 'l' : 'r'}-${Math.random().toString(36).slice(2, 8)}`;
      const clip = el('clipPath', { id: clipId }, this.svg);
      el('circle', { cx, cy: 105, r: 20 }, clip);
      el('circle', { cx, cy: 105, r: 20, class: 'eyeball' }, ball);
      const pupil = el('circle', { cx, cy: 105, r: 8, class: 'pupil moves' }, ball);
      const lids = el('g', { 'clip-path': `url(#${clipId})` }, ball);
      const lid = el('rect', { x: cx - 22, y: 83, width: 44, height: 0, class: 'eyelid moves' }, lids);
      const brow = el('line', { x1: cx - 18, y1: 74, x2: cx + 18, y2: 74, class: 'eyebrow moves' }, eye);
      this.#eyes.push({ ball, lid, brow, pupil, side });
    }
    this.show({}, 0);
  }

  /**
   * Turns the eyes toward a direction on the page: `dx`, `dy` in -1..1 (right and down positive; 0, 0
   * looks straight out at the person), over `durationMs`. EMYS's eyes are fixed in its head; on the
   * page the pupils show where it looks, so a person sees it at a glance.
   */
  look(dx: number, dy: number, durationMs: number): void {
    const clamp = (v: number): number => Math.max(-1, Math.min(1, v));
    for (const eye of this.#eyes) {
      eye.pupil.style.transitionDuration = `${Math.max(0, Math.min(3000, durationMs))}ms`;
      eye.pupil.style.transform = `translate(${clamp(dx) * 9}px, ${clamp(dy) * 8}px)`;
    }
    this.svg.dataset.look = `${clamp(dx).toFixed(2)},${clamp(dy).toFixed(2)}`;
  }

  /**
   * The expression on show, as /robot_face/expression names it, with its valence (-1..1): the mouth,
   * drawn at least a third of the way so a weak smile is still a smile.
   */
  express(expression: string, valence: number): void {
    const m = MOUTH[expression] ?? MOUTH.neutral!;
    const k = expression === 'neutral' ? 0 : Math.max(0.35, Math.min(1, Math.sqrt(Math.abs(valence) / 0.8)));
    this.#mouth.setAttribute('d', mouthPath(m.curve * k, m.open * k));
    this.svg.dataset.expression = expression;
  }

  /** The joints now (merged with what was shown before). */
  get joints(): Record<string, number> {
    return { ...this.#joints };
  }

  /** Moves to these targets (ROS joint names) over `durationMs`. */
  show(targets: Record<string, number>, durationMs: number): void {
    const j = (this.#joints = { ...this.#joints, ...targets });
    const g = (name: string): number => legible(name, j[name] ?? NEUTRAL[name] ?? 0);
    const ms = `${Math.max(0, Math.min(3000, durationMs))}ms`;
    for (const e of this.svg.querySelectorAll<SVGElement>('.moves')) e.style.transitionDuration = ms;
    // Front view: yaw slides and narrows the head, pitch and the neck move it up and down.
    const yaw = (g('head_yaw') * Math.PI) / 180;
    const dy = g('head_pitch') * 0.6 + g('neck_pitch') * 0.5;
    this.#head.style.transform = `translate(${Math.sin(yaw) * 40}px, ${dy}px) translate(110px, 0) scaleX(${0.6 + 0.4 * Math.cos(yaw)}) translate(-110px, 0)`;
    // Discs open away from the eyes (lower disc negative = down, upper disc positive = up).
    this.#lower.style.transform = `translateY(${-g('lower_disc') * 1.6}px)`;
    this.#upper.style.transform = `translateY(${-g('upper_disc') * 1.6}px)`;
    for (const eye of this.#eyes) {
      const left = eye.side < 0;
      const lid = g(left ? 'left_eyelid' : 'right_eyelid');
      const brow = g(left ? 'left_eyebrow' : 'right_eyebrow');
      const protrusion = g(left ? 'left_eye_protrusion' : 'right_eye_protrusion');
      const cx = 110 + eye.side * 34;
      eye.ball.style.transformOrigin = `${cx}px 105px`;
      eye.ball.style.transform = `scale(${0.85 + protrusion / 250})`;
      // 0: closed (the lid covers the eye), 120: wide open (none of it).
      const cover = Math.max(0, Math.min(1, 1 - lid / 120));
      eye.lid.style.transform = `scaleY(1)`;
      eye.lid.setAttribute('height', String(44 * cover));
      // Positive raises the inner end of the brow (towards the face's middle).
      eye.brow.style.transformOrigin = `${cx}px 74px`;
      eye.brow.style.transform = `translateY(${-Math.abs(brow) * 0.1}px) rotate(${-eye.side * brow * -0.6}deg)`;
    }
    this.svg.dataset.joints = JSON.stringify(j);
  }
}

/** A mouth on the face's middle: `curve` -1 (down) .. 1 (a smile), `open` 0..1 (an O). */
function mouthPath(curve: number, open: number): string {
  const y = 150;
  const w = 16;
  const bend = curve * 8;
  if (open > 0.05) {
    const r = 2.5 + open * 4;
    return `M ${110 - r} ${y} a ${r} ${r * 1.2} 0 1 0 ${2 * r} 0 a ${r} ${r * 1.2} 0 1 0 ${-2 * r} 0`;
  }
  return `M ${110 - w} ${y - bend / 2} Q 110 ${y + bend} ${110 + w} ${y - bend / 2}`;
}
