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

  /** The joints now (merged with what was shown before). */
  get joints(): Record<string, number> {
    return { ...this.#joints };
  }

  /** Moves to these targets (ROS joint names) over `durationMs`. */
  show(targets: Record<string, number>, durationMs: number): void {
    const j = (this.#joints = { ...this.#joints, ...targets });
    const g = (name: string): number => j[name] ?? NEUTRAL[name] ?? 0;
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
