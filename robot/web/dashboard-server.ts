// The operator dashboard's server: HTTP for the built front end and a socket.io namespace, /dashboard,
// on the same HTTP server. It follows the bus topics a dashboard shows, folds each message into one
// state (state.ts), sends that state to a dashboard when it connects and then every message as an
// update, so all open dashboards show the same thing. Controls come back validated (protocol.ts) and
// go out on the bus only, so the session's recording has them and the node's parts act on them.
//
// Security: 127.0.0.1 by default; the socket.io handshake must carry the operator token (`auth.token`),
// compared in constant time, or the connection is refused with a reason before anything is sent. The
// static page loads without it but shows nothing until the operator gives the token.

import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import type { TableLogger } from '../../table-bridge/index.js';
import {
  DEFAULT_CONNECTION_CAPS,
  describeIssues,
  guardConnections,
  sameOriginPage,
  silentLogger,
  tokensEqual,
  wording,
} from '../../table-bridge/index.js';
import type { BehaviourTogglesMessage, Bus, Unsubscribe } from '../bus/index.js';
import type { UtteranceLibrary } from '../../behaviours/index.js';
import { loadBehaviourSetup, reviewText } from '../../behaviours/index.js';
import type { Seat } from '../../game/index.js';
import { reviewOfMessage } from '../live/session/bus-messages.js';
import type {
  ControlAck,
  DashboardClientEvents,
  DashboardServerEvents,
  LineChecker,
  ParsedControl,
} from './protocol.js';
import { DASHBOARD_NAMESPACE, DEFAULT_DASHBOARD_PORT, LANGUAGES, TOGGLE_KEYS, controlSchemaFor } from './protocol.js';
import type { WizardLibraries } from './wizard-lines.js';
import { fillWizardLine, findLine, wizardLibraryOf } from './wizard-lines.js';
import type {
  DashboardState,
  DashboardTopic,
  DashboardTopics,
  DashboardUpdate,
  DaySessions,
  StudyPanel,
} from './state.js';
import { DASHBOARD_TOPICS, applyUpdate, emptyState } from './state.js';
import { defaultWebRoot, staticHandler } from './static-files.js';
import { withTableServerRoute } from './table-server-route.js';
import { Passes, withPassRoute } from './passes.js';

interface DashboardServerOptions {
  bus: Bus;
  /** The operator token; default a new random one (read it back from `token`, print it). */
  token?: string;
  /** Default 127.0.0.1: serving another machine is an explicit choice. */
  host?: string;
  /** Default DEFAULT_DASHBOARD_PORT (7420); 0 picks a free port. */
  port?: number;
  /**
   * Mount on this HTTP server instead of creating one: the dashboard's pages and namespace are added
   * to it and `listen` is the owner's business (host and port are then ignored).
   */
  server?: HttpServer;
  /** The built front end; default dist/web in the package. */
  webRoot?: string;
  /** Where the virtual table page connects, shown to authenticated operators; null: none offered. */
  virtualTable?: { url: string; token: string } | null;
  /** The robot's utterance libraries by language, for the wizard's lines; default config/utterances/ (pt, en). */
  utterances?: ReadonlyMap<string, UtteranceLibrary>;
  /** Milliseconds since the epoch, for update stamps and the passes' lifetimes. Default: the high-resolution wall clock. */
  now?: () => number;
  /** Who the bus messages of dashboard controls say asked. Default "operator". */
  by?: string;
  logger?: TableLogger;
}

/**
 * A study session on this dashboard (`parceiro study run`): the participants' pages' API, their
 * tokens for a link's pass, and the operator's study controls. Given by the study session, which
 * owns the questionnaires and the files; the dashboard only routes.
 */
export interface StudyDeskHooks {
  /** The participants' pages' calls; false for a request that is not one. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** A page's token for participant `code` (null: not at this session). */
  join(code: string): { token: string; code: string } | null;
  /** The operator's study controls: start the games, end them (or the session), a note. */
  control(control: { type: 'study-start' } | { type: 'study-end' } | { type: 'study-note'; text: string }): ControlAck;
}

type DashboardIo = Server<DashboardClientEvents, DashboardServerEvents>;

const DEFAULT_TOGGLES: BehaviourTogglesMessage = {
  speech: true,
  postures: true,
  gaze: true,
  partner_speech: true,
  opponent_speech: true,
  expressiveness: 1,
  changed: [],
  by: '',
};

/** The shipped libraries, when the caller gives none. */
const shippedLibraries = (): Map<string, UtteranceLibrary> =>
  new Map(LANGUAGES.map((language) => [language, loadBehaviourSetup({ language }).utterances]));

/** A token an operator can type: 24 characters of base64url (144 bits). */
const newOperatorToken = (): string => randomBytes(18).toString('base64url');

export class DashboardServer {
  // On the dashboard's clock (`now`), so that a test can move it on rather than wait.
  readonly #passes = new Passes(() => this.#now());
  readonly token: string;
  readonly #bus: Bus;
  readonly #options: { host: string; port: number; by: string };
  readonly #now: () => number;
  readonly #log: TableLogger;
  readonly #http: HttpServer;
  readonly #ownsHttp: boolean;
  readonly #io: DashboardIo;
  readonly #state: DashboardState;
  readonly #unsubscribe: Unsubscribe[] = [];
  readonly #onRequest: (req: IncomingMessage, res: ServerResponse) => void;
  readonly #lines: WizardLibraries;
  /** The libraries themselves, for the review's words. */
  readonly #libraries: ReadonlyMap<string, UtteranceLibrary>;
  #reviewsSaid = 0;
  readonly #controlSchema: ReturnType<typeof controlSchemaFor>;
  #seq = 0;
  #address: AddressInfo | null = null;
  #study: StudyDeskHooks | null = null;

  constructor(options: DashboardServerOptions) {
    this.token = options.token ?? newOperatorToken();
    if (this.token.length < 8) throw new Error('the operator token must have at least 8 characters');
    this.#bus = options.bus;
    this.#options = {
      host: options.host ?? '127.0.0.1',
      port: options.port ?? DEFAULT_DASHBOARD_PORT,
      by: options.by ?? 'operator',
    };
    this.#now = options.now ?? (() => performance.timeOrigin + performance.now());
    this.#log = options.logger ?? silentLogger;
    this.#libraries = options.utterances ?? shippedLibraries();
    this.#lines = Object.fromEntries(
      [...this.#libraries].map(([language, library]) => [language, wizardLibraryOf(library)]),
    );
    this.#state = emptyState(this.#bus.kind, this.#now(), options.virtualTable ?? null, this.#lines);
    const lines: LineChecker = {
      targetOf: (language, id) => findLine(this.#lines[language], id)?.to,
      language: () => this.#language(),
    };
    this.#controlSchema = controlSchemaFor(lines);

    // The page handler goes on first: socket.io passes it every request that is not its own.
    // /table-server.json tells a virtual table opened without a link where to connect.
    // POST /pass trades a link's one-time pass for what it grants (passes.ts): no token in an address.
    // A study session's participants' pages call /questionnaire/api/ (robot/study/questionnaires/desk.ts).
    const pages = withTableServerRoute(
      staticHandler(options.webRoot ?? defaultWebRoot()),
      options.virtualTable ?? null,
    );
    this.#onRequest = withPassRoute(
      (req, res) => {
        if (!this.#study?.handle(req, res)) pages(req, res);
      },
      {
        passes: this.#passes,
        operatorToken: this.token,
        virtualTable: options.virtualTable ?? null,
        participants: { join: (code) => this.#study?.join(code) ?? null },
      },
    );
    this.#ownsHttp = !options.server;
    // A request whose headers never finish is closed after 10 s: held open, it would hold a descriptor.
    this.#http =
      options.server ??
      createServer({ headersTimeout: 10_000, requestTimeout: 20_000, connectionsCheckingInterval: 1000 });
    this.#http.on('request', this.#onRequest);
    this.#io = new Server<DashboardClientEvents, DashboardServerEvents>(this.#http, {
      serveClient: false,
      maxHttpBufferSize: 64 * 1024,
      // Only the dashboard's own page, not a page of another site open in the operator's browser.
      allowRequest: (req, callback) => {
        const origin = req.headers.origin;
        const ok = origin === undefined || sameOriginPage(origin, req.headers.host);
        if (!ok) this.#log.warn({ origin }, 'a dashboard connection from a page of another origin refused');
        callback(null, ok);
      },
    });
    if (this.#ownsHttp) {
      this.#io.of('/').on('connection', (socket) => socket.disconnect(true));
      // After socket.io, which takes over the server's request listeners.
      guardConnections(this.#http, DEFAULT_CONNECTION_CAPS, this.#log, 'dashboard');
    }

    const nsp = this.#io.of(DASHBOARD_NAMESPACE);
    nsp.use((socket, next) => {
      const token: unknown = (socket.handshake.auth as Record<string, unknown> | undefined)?.token;
      const refuse = (code: string, reason: string): void => {
        this.#log.warn({ address: socket.handshake.address, code }, 'dashboard connection refused');
        next(Object.assign(new Error(reason), { data: { code } }));
      };
      if (typeof token !== 'string' || token === '') return refuse('no-token', 'an operator token is required');
      if (token.length > 512 || !tokensEqual(token, this.token))
        return refuse('bad-token', 'the operator token does not match');
      next();
    });
    nsp.on('connection', (socket) => {
      this.#log.info({ address: socket.handshake.address, dashboards: nsp.sockets.size }, 'dashboard connected');
      socket.emit('snapshot', { ...this.#state, atMs: this.#now() });
      socket.on('control', (payload: unknown, ack: unknown) => {
        const reply = typeof ack === 'function' ? (ack as (r: ControlAck) => void) : () => {};
        reply(this.control(payload));
      });
    });

    for (const topic of DASHBOARD_TOPICS) this.#follow(topic);
  }

  /** Starts listening (own HTTP server only); resolves with the address. */
  async listen(): Promise<{ host: string; port: number; url: string }> {
    if (!this.#ownsHttp) throw new Error('the dashboard is mounted on a server it does not own: listen on that server');
    await new Promise<void>((resolve, reject) => {
      this.#http.once('error', reject);
      this.#http.listen(this.#options.port, this.#options.host, () => {
        this.#http.off('error', reject);
        resolve();
      });
    });
    this.#address = this.#http.address() as AddressInfo;
    this.#log.info({ url: this.url }, 'dashboard listening');
    return { host: this.#address.address, port: this.#address.port, url: this.url };
  }

  /** The dashboard's base URL (own HTTP server, once listening). */
  get url(): string {
    const a = this.#address ?? (this.#http.address() as AddressInfo | null);
    if (!a || typeof a === 'string') throw new Error('the dashboard is not listening');
    return `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
  }

  /**
   * A link to the operator's page that opens it once, with a one-time pass instead of the token (a
   * browser's history keeps every address it opened). `base`: the address to print (default `url`).
   */
  link(base = this.url): string {
    return `${base}/#pass=${this.#passes.issue({ kind: 'operator' })}`;
  }

  /**
   * A link to the virtual table, at `seat` (null: to choose one), with a one-time pass (see link),
   * good for 30 minutes; `untilClosed`: for as long as this dashboard runs (a study participant's
   * seat, opened when the games start, however long the questionnaires before them take).
   */
  tableLink(seat: number | null, base = this.url, o: { untilClosed?: boolean } = {}): string {
    const pass = this.#passes.issue({ kind: 'table', seat }, o.untilClosed ? Infinity : undefined);
    return `${base}/table#${new URLSearchParams({ pass, ...(seat === null ? {} : { seat: String(seat) }) })}`;
  }

  /** A study session's questionnaires and controls on this dashboard, until the server closes. */
  attachStudy(study: StudyDeskHooks): void {
    this.#study = study;
  }

  /**
   * A link to participant `code`'s questionnaires, with a one-time pass (see link) good for as long as
   * the study session (this dashboard) runs: a participant may open it late, and it opens nothing
   * once the session is over.
   */
  participantLink(code: string, base = this.url): string {
    return `${base}/questionnaire#pass=${this.#passes.issue({ kind: 'participant', code }, Infinity)}`;
  }

  /** The study session's panel changed: every dashboard gets it. */
  setStudy(panel: StudyPanel): void {
    const update: DashboardUpdate = {
      seq: ++this.#seq,
      atMs: this.#now(),
      topic: 'study',
      message: structuredClone(panel),
    };
    applyUpdate(this.#state, update);
    this.#io.of(DASHBOARD_NAMESPACE).emit('update', update);
  }

  /** The dashboards connected now. */
  get clients(): number {
    return this.#io.of(DASHBOARD_NAMESPACE).sockets.size;
  }

  /** The state a dashboard that connects now gets (a copy). */
  snapshot(): DashboardState {
    return structuredClone({ ...this.#state, atMs: this.#now() });
  }

  /**
   * Applies one control as a dashboard would send it: validated, then published on the bus. The answer
   * says only that the request went out; its effect comes back on the bus (e.g. `toggles`).
   */
  control(payload: unknown): ControlAck {
    let parsed: ParsedControl;
    try {
      const r = this.#controlSchema.safeParse(payload, { error: wording });
      if (!r.success) return { ok: false, reason: describeIssues('control', r.error.issues) };
      parsed = r.data;
    } catch (err) {
      return { ok: false, reason: `control: unreadable payload (${err instanceof Error ? err.message : String(err)})` };
    }
    const by = this.#options.by;
    switch (parsed.type) {
      case 'toggles': {
        const current = this.#state.toggles ?? DEFAULT_TOGGLES;
        const p = parsed.patch;
        const changed = TOGGLE_KEYS.filter((k) => p[k] !== undefined);
        this.#bus.publish('setToggles', {
          speech: p.speech ?? current.speech,
          postures: p.postures ?? current.postures,
          gaze: p.gaze ?? current.gaze,
          partner_speech: p.partner_speech ?? current.partner_speech,
          opponent_speech: p.opponent_speech ?? current.opponent_speech,
          expressiveness: p.expressiveness ?? current.expressiveness,
          changed: [...changed],
          by,
        });
        break;
      }
      case 'language':
        this.#bus.publish('setLanguage', { language: parsed.language, by });
        break;
      case 'pause':
      case 'resume':
        this.#bus.publish('sessionControl', { action: parsed.type, by });
        break;
      case 'next-session': {
        const refused = this.#nextSessionRefusal();
        if (refused) return { ok: false, reason: refused };
        this.#bus.publish('sessionControl', { action: 'next_session', by });
        break;
      }
      case 'say': {
        if (parsed.utteranceId === undefined) {
          this.#bus.publish('wizardSay', {
            text: parsed.text!,
            language: parsed.language ?? '',
            utterance_id: '',
            target: parsed.target ?? 'all',
            by,
          });
          break;
        }
        // A library line goes out filled in, so the recording (and a replay) has the words said.
        const language = parsed.language ?? this.#language();
        const library = this.#lines[language]!;
        const line = findLine(library, parsed.utteranceId)!;
        const text = fillWizardLine(library, line, this.#state);
        this.#bus.publish('wizardSay', { text, language, utterance_id: line.id, target: line.to, by });
        this.#log.info({ control: parsed, text }, 'dashboard control');
        return { ok: true, text };
      }
      case 'say-review': {
        const said = this.#reviewWords();
        if (!said.ok) return said;
        // Said as the operator's line (a wizard line with its words), so the recording has what was said.
        this.#bus.publish('wizardSay', {
          text: said.text,
          language: said.language,
          utterance_id: `operator-review#${++this.#reviewsSaid}`,
          target: 'all',
          by,
        });
        this.#log.info({ control: parsed, text: said.text }, 'dashboard control');
        return { ok: true, text: said.text };
      }
      case 'study-start':
      case 'study-end':
      case 'study-note': {
        if (!this.#study) return { ok: false, reason: 'no study session runs on this node (parceiro study run)' };
        const r = this.#study.control(parsed);
        this.#log.info({ control: parsed, ok: r.ok }, 'dashboard control');
        return r;
      }
      case 'study-link': {
        if (!this.#study) return { ok: false, reason: 'no study session runs on this node (parceiro study run)' };
        // Relative: the operator's page opens it from wherever it reached this server.
        const link = this.participantLink(parsed.code, '');
        return { ok: true, link };
      }
      case 'expression':
        this.#bus.publish('wizardExpression', { expression: parsed.expression, intensity: parsed.intensity, by });
        break;
    }
    this.#log.info({ control: parsed }, 'dashboard control');
    return { ok: true };
  }

  /**
   * The node's sessions changed (one began, played a game, ended): every dashboard gets the list.
   * Not a bus topic: each session's recording holds that session only.
   */
  setSessions(day: DaySessions): void {
    const update: DashboardUpdate = {
      seq: ++this.#seq,
      atMs: this.#now(),
      topic: 'sessions',
      message: structuredClone(day),
    };
    applyUpdate(this.#state, update);
    this.#io.of(DASHBOARD_NAMESPACE).emit('update', update);
  }

  /** Why the next session cannot be started now, or null when it can. */
  #nextSessionRefusal(): string | null {
    const day = this.#state.day;
    if (!day.next)
      return 'this node serves no next session (parceiro live serves one after another; simulate and play one)';
    const current = day.sessions.find((s) => s.id === day.current);
    const over =
      current?.status === 'over' ||
      current?.status === 'finished' ||
      (this.#state.game?.session_id === day.current && this.#state.game.status === 'session_over');
    if (!over) return `session ${day.current ?? '?'} is still being played: the next one starts once it is over`;
    return null;
  }

  /** The last review in the words of the language in force (behaviours/review-text.ts, as a table's question gets it), or why not. */
  #reviewWords(): { ok: true; text: string; language: string } | { ok: false; reason: string } {
    const r = this.#state.review?.message;
    if (!r) return { ok: false, reason: 'no game has been reviewed yet: the robot reviews each game when it ends' };
    const robotSeat = this.#state.game?.robot_seat;
    if (robotSeat === undefined || robotSeat < 0) return { ok: false, reason: "the robot's seat is not known yet" };
    const language = this.#language();
    const library = this.#libraries.get(language);
    if (!library?.review) return { ok: false, reason: `the ${language} utterances have no review section` };
    const review = reviewOfMessage(r);
    const text = review && reviewText(library, review, robotSeat as Seat);
    if (!text)
      return {
        ok: false,
        reason: `game ${r.game + 1} was not reviewed (${r.status}${r.detail ? `: ${r.detail}` : ''}): there is nothing to say`,
      };
    return { ok: true, text, language };
  }

  /** The language in force (the latched `language` topic), else the first library's. */
  #language(): string {
    const inForce = this.#state.language;
    return inForce && this.#lines[inForce] ? inForce : (Object.keys(this.#lines)[0] ?? LANGUAGES[0]);
  }

  async close(): Promise<void> {
    for (const off of this.#unsubscribe.splice(0)) off();
    this.#http.off('request', this.#onRequest);
    if (this.#ownsHttp) {
      await new Promise<void>((resolve) => {
        void this.#io.close(() => resolve());
        this.#http.closeAllConnections();
      });
    } else {
      this.#io.of(DASHBOARD_NAMESPACE).disconnectSockets(true);
    }
  }

  #follow<K extends DashboardTopic>(topic: K): void {
    const nsp = this.#io.of(DASHBOARD_NAMESPACE);
    this.#unsubscribe.push(
      this.#bus.subscribe(topic, (message) => {
        const update = {
          seq: ++this.#seq,
          atMs: this.#now(),
          topic,
          message: message as DashboardTopics[K],
        } as DashboardUpdate;
        applyUpdate(this.#state, update);
        nsp.emit('update', update);
      }),
    );
  }
}

export { DEFAULT_DASHBOARD_PORT };
