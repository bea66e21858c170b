import { Agent, request, type Dispatcher } from "undici";
import { readFileSync } from "node:fs";
import { PassThrough, type Readable, type Transform } from "node:stream";
import { constants as zc, createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { HarnessError, type HarnessErrorCode } from "../engine/errors.js";
import { EVIDENCE_BODY_CAP, type Exchange } from "./exchange.js";
import { toCurl } from "./curl.js";
import { Redactor } from "./redactor.js";
import { parseJsonBounded } from "./json-bounds.js";

/** Limits and trust settings of a run's HTTP traffic (profile `options`). */
export interface ClientOptions {
  readonly requestTimeoutMs: number;
  readonly maxResponseBytes: number;
  readonly allowInsecureHttp: boolean;
  /** PEM file of an extra CA the target's certificate chains to. */
  readonly caFile?: string | undefined;
  readonly maxRedirects: number;
}

export const DEFAULT_CLIENT_OPTIONS: ClientOptions = {
  requestTimeoutMs: 10_000,
  maxResponseBytes: 4 * 1024 * 1024,
  allowInsecureHttp: false,
  maxRedirects: 5,
};

export interface HttpRequest {
  readonly method?: string;
  readonly url: string | URL;
  readonly headers?: Record<string, string>;
  /** Raw body; `json` and `form` set the content type for you. */
  readonly body?: string;
  readonly json?: unknown;
  readonly form?: Record<string, string>;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  /** Follow up to this many redirects, recording each hop; 0 (the default) returns the 3xx. */
  readonly follow?: number;
  /** Short name shown in the report beside the exchange ("create user"). */
  readonly label?: string;
  /**
   * Decode the body per its Content-Encoding (gzip, deflate, br) into `text`; `bytes` stays the
   * count on the wire. A body that does not decode sets `decodeError` (a finding, not a throw).
   */
  readonly decode?: boolean;
  /**
   * Read the body as it arrives and drop the connection once this returns true for the text so
   * far (how a client abandons a stream); the response is then marked `stopped`.
   */
  readonly stopWhen?: (text: string) => boolean;
  /**
   * Read the whole body (the connection stays usable) but keep only its start: `text` is then
   * that start. For requests whose body the check does not judge (a burst that counts statuses).
   */
  readonly discardBody?: boolean;
  /**
   * What the check says of this request for the run's observers (`attack`: deliberately
   * malformed; `burst`): an observer leaves out what its rule does not speak of.
   */
  readonly tags?: readonly string[];
  /**
   * `if-cited`: one of many alike (a page in the middle of a long walk). The report shows it
   * only when a finding cites it or `keepEvidence` asks so, and `release` frees it at once.
   */
  readonly evidence?: "if-cited";
}

/** The request side of an exchange, as a response watcher sees it. */
export interface SentRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly label: string | undefined;
  readonly tags: readonly string[];
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
  readonly bytes: number;
  /** Index of this exchange in the recorder, for findings to cite. */
  readonly exchangeId: number;
  header(name: string): string | undefined;
  /** Parsed body, or `undefined` with `jsonError` set when the body is not JSON. */
  readonly json: unknown;
  readonly jsonError: string | undefined;
  /** With `stopWhen`: the client dropped the connection before the body ended. */
  readonly stopped?: boolean;
  /** With `decode`: why the body did not decode per its Content-Encoding. */
  readonly decodeError?: string | undefined;
}

/**
 * What the client keeps of one exchange until the check ends: bounded prefixes of the bodies
 * and header values (what a report shows), never the whole message. The secrets the whole
 * message carried in known places were learnt when it passed, so the prefix can still be
 * redacted; memory stays at exchanges × the evidence cap, not exchanges × the size cap.
 */
interface RawExchange {
  id: number;
  label: string | undefined;
  method: string;
  url: string;
  reqHeaders: Record<string, string>;
  reqBody: string | undefined;
  reqCut: boolean;
  status: number | undefined;
  resHeaders: Record<string, string> | undefined;
  resBody: string | undefined;
  resCut: boolean;
  /** Lower-case names of headers whose value was kept only in part. */
  cutHeaders: Set<string>;
  resBytes: number;
  truncated: boolean;
  error: { code: HarnessErrorCode; message: string } | undefined;
  startedAt: number;
  durationMs: number;
  /** Shown only when cited (HttpRequest.evidence); `released`: nothing of it is kept any more. */
  ifCited: boolean;
  released: boolean;
}

const agents = new Map<string, Agent>();

/** One undici Agent per trust configuration, shared by every check of a worker. */
function agentFor(opts: ClientOptions): Agent {
  const key = `${opts.caFile ?? ""}|${opts.requestTimeoutMs}`;
  let agent = agents.get(key);
  if (!agent) {
    const ca = opts.caFile ? readFileSync(opts.caFile, "utf8") : undefined;
    agent = new Agent({
      connect: { ...(ca ? { ca } : {}), rejectUnauthorized: true, timeout: opts.requestTimeoutMs },
      // Precise limits come from the AbortSignal; these only stop undici's own defaults from firing first.
      headersTimeout: opts.requestTimeoutMs + 1000,
      bodyTimeout: opts.requestTimeoutMs + 1000,
    });
    agents.set(key, agent);
  }
  return agent;
}

/** Closes the shared agents (end of a worker or of a run). */
export async function closeAgents(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.close()));
}

/**
 * The recording HTTP client every check uses. It never follows a redirect silently,
 * refuses plain http unless the profile allows it, bounds every exchange in time and size,
 * and keeps each exchange (raw, in memory) until `evidence()` redacts it for the report.
 */
export class RecordingClient {
  private readonly log: RawExchange[] = [];
  private readonly agent: Agent;

  private readonly learner: Redactor;
  /** Body characters kept so far, against the evidence budget. */
  private keptChars = 0;
  private readonly watchers: ((req: SentRequest, res: HttpResponse) => void)[] = [];
  private readonly preparers: ((req: HttpRequest) => HttpRequest | Promise<HttpRequest>)[] = [];

  /**
   * `learner` learns each message's secrets before only a prefix of it is kept: give the
   * check's redactor; without one the client keeps its own and hands what it learnt to
   * `evidence()`.
   */
  constructor(
    private readonly opts: ClientOptions,
    private readonly signal?: AbortSignal,
    learner?: Redactor,
  ) {
    this.learner = learner ?? new Redactor();
    this.agent = agentFor(opts);
  }

  get count(): number {
    return this.log.length;
  }

  /**
   * True when the run allows plain http (options.allowInsecureHttp): a check then leaves a rule
   * that a URL be https not exercised for a plain http URL, rather than judging it.
   */
  get allowsPlainHttp(): boolean {
    return this.opts.allowInsecureHttp;
  }

  /**
   * Calls `fn` with every complete response (each redirect hop too), whole, before only its start
   * is kept. What `fn` throws, the request throws: a suite's watcher may end the check that sent
   * it (a skip when the target refuses the harness's own client authentication).
   */
  onResponse(fn: (req: SentRequest, res: HttpResponse) => void): void {
    this.watchers.push(fn);
  }

  /**
   * Calls `fn` with every request before it is sent, in order of registration; what it returns
   * is sent instead (how a suite adds client authentication to the requests of every check).
   */
  onRequest(fn: (req: HttpRequest) => HttpRequest | Promise<HttpRequest>): void {
    this.preparers.push(fn);
  }

  private seen(
    url: URL,
    method: string,
    headers: Record<string, string>,
    req: HttpRequest,
    res: HttpResponse,
  ): HttpResponse {
    if (this.watchers.length === 0) return res;
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    const sent: SentRequest = { method, url, headers: lower, label: req.label, tags: req.tags ?? [] };
    for (const w of this.watchers) w(sent, res);
    return res;
  }

  async send(original: HttpRequest): Promise<HttpResponse> {
    let req = original;
    for (const prepare of this.preparers) req = await prepare(req);
    let url = new URL(req.url);
    let method = (req.method ?? "GET").toUpperCase();
    let headers: Record<string, string> = { ...req.headers };
    let body = req.body;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers["content-type"] ??= "application/json";
    } else if (req.form !== undefined) {
      body = new URLSearchParams(req.form).toString();
      headers["content-type"] ??= "application/x-www-form-urlencoded";
    }
    const seen = new Set<string>();
    for (let hop = 0; ; hop++) {
      const res = await this.once(url, method, headers, body, req);
      if ((req.follow ?? 0) === 0 || res.status < 300 || res.status > 399) return res;
      const location = res.header("location");
      if (location === undefined) return res;
      seen.add(url.href);
      const next = new URL(location, url);
      if (hop + 1 > Math.min(req.follow ?? 0, this.opts.maxRedirects) || seen.has(next.href)) {
        throw new HarnessError(
          "IDC_HTTP_REDIRECT_LOOP",
          `gave up after ${hop + 1} redirect(s): ${seen.has(next.href) ? "loop back to " : "next would be "}${next.href}`,
        );
      }
      if (next.origin !== url.origin) {
        // Credentials are for the origin that was asked, never for where it redirects.
        headers = Object.fromEntries(
          Object.entries(headers).filter(
            ([k]) => !["authorization", "cookie", "proxy-authorization"].includes(k.toLowerCase()),
          ),
        );
      }
      url = next;
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
        const { "content-type": _dropped, ...rest } = headers;
        headers = rest;
      }
    }
  }

  get(url: string | URL, init: Omit<HttpRequest, "url" | "method"> = {}): Promise<HttpResponse> {
    return this.send({ ...init, url, method: "GET" });
  }

  post(url: string | URL, init: Omit<HttpRequest, "url" | "method"> = {}): Promise<HttpResponse> {
    return this.send({ ...init, url, method: "POST" });
  }

  private async once(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    req: HttpRequest,
  ): Promise<HttpResponse> {
    this.learner.learn(headers, body, url.href);
    const cutHeaders = new Set<string>();
    const raw: RawExchange = {
      id: this.log.length,
      label: req.label,
      method,
      url: prefix(url.href, EVIDENCE_BODY_CAP),
      reqHeaders: keepHeaders(headers, cutHeaders),
      reqBody: body === undefined ? undefined : this.keep(body),
      reqCut: false,
      status: undefined,
      resHeaders: undefined,
      resBody: undefined,
      resCut: false,
      cutHeaders,
      resBytes: 0,
      truncated: false,
      error: undefined,
      startedAt: Date.now(),
      durationMs: 0,
      ifCited: req.evidence === "if-cited",
      released: false,
    };
    raw.reqCut = body !== undefined && raw.reqBody !== undefined && body.length > raw.reqBody.length;
    this.log.push(raw);
    if (url.protocol === "http:" && !this.opts.allowInsecureHttp) {
      failed(
        raw,
        url,
        "IDC_HTTP_INSECURE",
        "plain http refused; set options.allowInsecureHttp: true (the run is then not certifiable)",
      );
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      failed(raw, url, "IDC_HTTP_FAILED", `unsupported scheme ${url.protocol}`);

    const timeoutMs = req.timeoutMs ?? this.opts.requestTimeoutMs;
    const maxBytes = req.maxBytes ?? this.opts.maxResponseBytes;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = this.signal ? AbortSignal.any([timeout, this.signal]) : timeout;
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: body ?? null,
        signal,
        dispatcher: this.agent,
      });
    } catch (err) {
      return failed(raw, url, ...classify(err, timeout, timeoutMs));
    }
    raw.status = res.statusCode;
    const resHeaders = flatten(res.headers);
    this.learner.learn(resHeaders, undefined);
    raw.resHeaders = keepHeaders(resHeaders, cutHeaders);
    // HEAD, 204 and 304 carry no body whatever Content-Length says (RFC 9110 §8.6).
    const bodiless =
      method === "HEAD" || res.statusCode === 204 || res.statusCode === 304 || res.statusCode < 200;
    const declared = bodiless ? 0 : Number(resHeaders["content-length"] ?? "NaN");
    if (!bodiless && (req.decode || req.stopWhen)) {
      let read: Awaited<ReturnType<typeof readStream>>;
      try {
        read = await readStream(
          res.body,
          req.decode ? resHeaders["content-encoding"] : undefined,
          maxBytes,
          raw,
          req.stopWhen,
        );
      } catch (err) {
        return failed(raw, url, ...classify(err, timeout, timeoutMs));
      }
      if (read.text === undefined)
        return failed(
          raw,
          url,
          "IDC_HTTP_TOO_LARGE",
          `response body passed the ${maxBytes}-byte cap; reading stopped`,
        );
      this.keepBody(raw, read.text, resHeaders);
      raw.durationMs = Date.now() - raw.startedAt;
      return this.seen(
        url,
        method,
        headers,
        req,
        new RecordedResponse(
          res.statusCode,
          resHeaders,
          read.text,
          raw.resBytes,
          raw.id,
          read.stopped,
          read.decodeError,
        ),
      );
    }
    let text: string;
    try {
      if (declared > maxBytes) {
        raw.truncated = true;
        res.body.on("error", () => undefined);
        res.body.destroy();
        failed(
          raw,
          url,
          "IDC_HTTP_TOO_LARGE",
          `response declares ${declared} bytes, over the ${maxBytes}-byte cap`,
        );
      }
      // A declared length within the cap is enforced by undici itself: read it in one go.
      const read = bodiless
        ? (await res.body.dump(), "")
        : req.discardBody
          ? await readDiscarding(res.body, maxBytes, raw)
          : Number.isFinite(declared)
            ? await res.body.text()
            : await readCapped(res.body, maxBytes, raw);
      if (read === undefined)
        return failed(
          raw,
          url,
          "IDC_HTTP_TOO_LARGE",
          `response body passed the ${maxBytes}-byte cap; reading stopped`,
        );
      text = read;
      if (Number.isFinite(declared)) raw.resBytes = declared;
    } catch (err) {
      if (err instanceof HarnessError) throw err;
      return failed(raw, url, ...classify(err, timeout, timeoutMs));
    }
    this.keepBody(raw, text, resHeaders);
    // A discarded body's text is already only its start.
    if (req.discardBody) raw.resCut = raw.resBytes > Buffer.byteLength(text);
    raw.durationMs = Date.now() - raw.startedAt;
    return this.seen(
      url,
      method,
      headers,
      req,
      new RecordedResponse(res.statusCode, resHeaders, text, raw.resBytes, raw.id),
    );
  }

  /**
   * The start of a body to keep for the report: up to the evidence cap while the check's
   * evidence budget lasts, a short start after that (a burst of 500 exchanges must not keep
   * 500 × 64 KB).
   */
  private keep(text: string): string {
    const kept = prefix(text, this.keptChars < EVIDENCE_BUDGET ? EVIDENCE_BODY_CAP : EVIDENCE_BODY_FLOOR);
    this.keptChars += kept.length;
    return kept;
  }

  /** Learns the secrets of a whole response body, then keeps only its start. */
  private keepBody(raw: RawExchange, text: string, headers: Record<string, string>): void {
    this.learner.learn({ "content-type": headers["content-type"] ?? "" }, text);
    raw.resBody = this.keep(text);
    raw.resCut = text.length > raw.resBody.length;
  }

  /**
   * The recorded exchanges, redacted and capped, ready for a report. Bodies of the exchanges
   * findings cite keep up to the evidence cap; the others a shorter start.
   */
  evidence(redactor: Redactor, cited?: ReadonlySet<number>): Exchange[] {
    // Every message's secrets were learnt as it passed, so a token met in exchange 3 is also
    // removed from exchange 1.
    if (this.learner !== redactor) for (const e of this.learner.entries()) redactor.add(e.value, e.name);
    // Exchange ids stay those of the log: findings cite them, and the report looks them up by id.
    return this.log
      .filter((r) => !r.released && (!r.ifCited || cited === undefined || cited.has(r.id)))
      .map((r) =>
        this.render(
          r,
          redactor,
          cited === undefined || cited.has(r.id) ? EVIDENCE_BODY_CAP : UNCITED_BODY_CAP,
        ),
      );
  }

  /** Shows an `if-cited` exchange in the report whether or not a finding cites it (a walk's last page). */
  keepEvidence(id: number): void {
    const r = this.log[id];
    if (r !== undefined && !r.released) r.ifCited = false;
  }

  /**
   * Frees an `if-cited` exchange no finding will cite (a page of a walk already judged): only
   * its id stays, so a walk of thousands of pages holds no more than its count. Exchanges
   * shown in any case (not `if-cited`, or kept) are left alone.
   */
  release(id: number): void {
    const r = this.log[id];
    if (r === undefined || !r.ifCited || r.released) return;
    r.released = true;
    r.reqHeaders = {};
    r.reqBody = undefined;
    r.resHeaders = undefined;
    r.resBody = undefined;
    r.url = "";
    r.cutHeaders.clear();
  }

  private render(r: RawExchange, redactor: Redactor, limit: number): Exchange {
    const reqBody =
      r.reqBody === undefined
        ? undefined
        : cap(redactor.body(r.reqBody, r.reqHeaders["content-type"], r.reqCut), r.reqCut, limit);
    const request = {
      method: r.method,
      url: redactor.url(r.url),
      headers: redactor.headers(r.reqHeaders, r.cutHeaders),
      ...(reqBody !== undefined ? { body: reqBody } : {}),
    };
    const resHeaders = r.resHeaders ? redactor.headers(r.resHeaders, r.cutHeaders) : undefined;
    const resBody =
      r.resBody === undefined
        ? undefined
        : cap(redactor.body(r.resBody, r.resHeaders?.["content-type"], r.resCut), r.resCut, limit);
    return {
      id: r.id,
      ...(r.label !== undefined ? { label: r.label } : {}),
      request,
      ...(r.status !== undefined && resHeaders
        ? {
            response: {
              status: r.status,
              headers: resHeaders,
              ...(resBody !== undefined ? { body: resBody } : {}),
              bodyBytes: r.resBytes,
            },
          }
        : {}),
      ...(r.truncated ? { truncated: true } : {}),
      ...(r.error ? { error: { code: r.error.code, message: redactor.text(r.error.message) } } : {}),
      startedAt: new Date(r.startedAt).toISOString(),
      durationMs: r.durationMs,
      curl: toCurl(request, redactor.placeholders()),
    };
  }
}

/**
 * Reads a body of unknown length, stopping at the cap (then `undefined`); what was read
 * stays in the evidence.
 */
async function readCapped(
  body: Dispatcher.ResponseData["body"],
  maxBytes: number,
  raw: RawExchange,
): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of body) {
      const buf = chunk as Buffer;
      raw.resBytes += buf.length;
      if (raw.resBytes > maxBytes) {
        raw.truncated = true;
        chunks.push(buf.subarray(0, Math.max(0, buf.length - (raw.resBytes - maxBytes))));
        body.on("error", () => undefined);
        body.destroy();
        raw.resBody = Buffer.concat(chunks).subarray(0, EVIDENCE_BODY_CAP).toString("utf8");
        raw.resCut = true;
        return undefined;
      }
      chunks.push(buf);
    }
  } catch (err) {
    raw.resBody ??= Buffer.concat(chunks).subarray(0, EVIDENCE_BODY_CAP).toString("utf8");
    raw.resCut = true;
    throw err;
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Reads a body to its end, bounded by the cap, keeping only its first 2 KiB (then `undefined`
 * past the cap, with that start in the evidence).
 */
async function readDiscarding(
  body: Dispatcher.ResponseData["body"],
  maxBytes: number,
  raw: RawExchange,
): Promise<string | undefined> {
  const KEEP = 2 * 1024;
  const start: Buffer[] = [];
  let have = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    raw.resBytes += buf.length;
    if (have < KEEP) {
      const part = Buffer.from(buf.subarray(0, KEEP - have));
      start.push(part);
      have += part.length;
    }
    if (raw.resBytes > maxBytes) {
      raw.truncated = true;
      body.on("error", () => undefined);
      body.destroy();
      raw.resBody = Buffer.concat(start).toString("utf8");
      raw.resCut = true;
      return undefined;
    }
  }
  return Buffer.concat(start).toString("utf8");
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  // Z_SYNC_FLUSH: a stream the client drops mid-way still yields what arrived.
  const e = encoding?.trim().toLowerCase();
  if (e === "gzip" || e === "x-gzip") return createGunzip({ finishFlush: zc.Z_SYNC_FLUSH });
  if (e === "deflate") return createInflate({ finishFlush: zc.Z_SYNC_FLUSH });
  if (e === "br") return createBrotliDecompress({ finishFlush: zc.BROTLI_OPERATION_FLUSH });
  return undefined;
}

/**
 * Reads a body as it arrives: decoded when asked, bounded on the wire and after decoding
 * (a compression bomb stops at the cap), and dropped early once `stopWhen` is satisfied.
 */
async function readStream(
  body: Readable,
  encoding: string | undefined,
  maxBytes: number,
  raw: RawExchange,
  stopWhen: ((text: string) => boolean) | undefined,
): Promise<{ text: string | undefined; stopped: boolean; decodeError?: string }> {
  const unknownEncoding =
    encoding !== undefined &&
    !["identity", ""].includes(encoding.trim().toLowerCase()) &&
    decoderFor(encoding) === undefined;
  const sink: Transform = decoderFor(encoding) ?? new PassThrough();
  const td = new TextDecoder();
  let text = "";
  let stopped = false;
  let decodeError: string | undefined = unknownEncoding
    ? `unsupported Content-Encoding ${encoding}`
    : undefined;
  const drop = (): void => {
    body.on("error", () => undefined);
    sink.on("error", () => undefined);
    body.destroy();
    sink.destroy();
  };
  body.on("data", (b: Buffer) => {
    raw.resBytes += b.length;
    if (raw.resBytes > maxBytes) {
      raw.truncated = true;
      drop();
    }
  });
  body.on("error", (e) => sink.destroy(e));
  body.pipe(sink);
  try {
    for await (const chunk of sink) {
      text += td.decode(chunk as Buffer, { stream: true });
      if (text.length > maxBytes) raw.truncated = true;
      if (raw.truncated) break;
      if (stopWhen?.(text)) {
        stopped = true;
        break;
      }
    }
  } catch (err) {
    if (raw.truncated) {
      // fall through: reported as over the cap below
    } else if (sink !== body && (err as { code?: string }).code?.startsWith("Z_")) {
      decodeError = `the body does not decode as ${encoding}: ${(err as Error).message}`;
    } else {
      raw.resBody = prefix(text, EVIDENCE_BODY_CAP);
      raw.resCut = true;
      throw err;
    }
  }
  if (stopped || raw.truncated) drop();
  if (raw.truncated) {
    raw.resBody = prefix(text, EVIDENCE_BODY_CAP);
    raw.resCut = true;
    return { text: undefined, stopped };
  }
  text += td.decode();
  return { text, stopped, ...(decodeError ? { decodeError } : {}) };
}

/** Records why an exchange ended without a complete response, and throws it as a harness error. */
function failed(raw: RawExchange, url: URL, code: HarnessErrorCode, message: string, cause?: unknown): never {
  raw.error = { code, message };
  raw.durationMs = Date.now() - raw.startedAt;
  throw new HarnessError(code, `${raw.method} ${url.origin}${url.pathname}: ${message}`, { cause });
}

/** A response as checks see it; the body is parsed as JSON on first use only. */
class RecordedResponse implements HttpResponse {
  private parsed: { json: unknown; jsonError: string | undefined } | undefined;

  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly text: string,
    readonly bytes: number,
    readonly exchangeId: number,
    readonly stopped = false,
    readonly decodeError: string | undefined = undefined,
  ) {}

  header(name: string): string | undefined {
    return this.headers[name.toLowerCase()];
  }

  get json(): unknown {
    return this.parse().json;
  }

  get jsonError(): string | undefined {
    return this.parse().jsonError;
  }

  private parse(): { json: unknown; jsonError: string | undefined } {
    if (this.parsed) return this.parsed;
    const p = parseJsonBounded(this.text);
    return (this.parsed = p.ok
      ? { json: p.value, jsonError: undefined }
      : { json: undefined, jsonError: p.error });
  }
}

/** A redacted body for the report: cut at the evidence cap, and marked when the original was longer. */
function cap(s: string, wasCut: boolean, limit: number): string {
  return s.length > limit || wasCut
    ? `${s.slice(0, limit)}\n… [cut at ${Math.min(limit, s.length)} characters]`
    : s;
}

/** Body characters one client keeps at full evidence length; past that, each body keeps a short start. */
const EVIDENCE_BUDGET = 1024 * 1024;
const EVIDENCE_BODY_FLOOR = 2 * 1024;
/** What a report shows of a body no finding cites. */
const UNCITED_BODY_CAP = 16 * 1024;

/** Header values kept whole up to this many characters; a longer one keeps its start. */
const HEADER_VALUE_CAP = 8 * 1024;

/**
 * The first `n` characters as a string of their own: a plain `slice` may keep the whole
 * (megabytes long) original alive behind the short view.
 */
export function prefix(s: string, n: number): string {
  if (s.length <= n) return s;
  return Buffer.from(s.slice(0, n), "utf8").toString("utf8");
}

function keepHeaders(h: Record<string, string>, cut: Set<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v.length > HEADER_VALUE_CAP) cut.add(k.toLowerCase());
    out[k] = prefix(v, HEADER_VALUE_CAP);
  }
  return out;
}

function flatten(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|SSL|HOSTNAME/;

function classify(
  err: unknown,
  timeout: AbortSignal,
  timeoutMs: number,
): [HarnessErrorCode, string, unknown] {
  if (timeout.aborted) return ["IDC_HTTP_TIMEOUT", `no complete response within ${timeoutMs} ms`, err];
  const e = err as {
    code?: string;
    message?: string;
    name?: string;
    cause?: { code?: string; message?: string };
  };
  if (e.name === "AbortError") return ["IDC_HTTP_FAILED", "aborted: the run or the check was stopped", err];
  const code = e.code ?? e.cause?.code ?? "";
  const message = e.cause?.message ?? e.message ?? String(err);
  if (TLS_CODES.test(code)) return ["IDC_HTTP_TLS", `TLS verification failed (${code}): ${message}`, err];
  if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|UND_ERR_CONNECT_TIMEOUT/.test(code)) {
    return ["IDC_HTTP_UNREACHABLE", `target unreachable (${code})`, err];
  }
  return ["IDC_HTTP_FAILED", `${code ? `${code}: ` : ""}${message}`, err];
}
