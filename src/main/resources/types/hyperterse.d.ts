// What Hyperterse gives TypeScript handlers and mappers: the argument a script's export receives,
// its ctx, the content helpers and ToolError. Written by `hyperterse init`; print it again with
// `hyperterse schema types > hyperterse.d.ts`. Declarations only: nothing here is imported.

/** The argument of a handler (and of an input or output mapper). */
interface HyperterseCall<Inputs = Record<string, unknown>> {
  /** The inputs, checked and coerced as the tool declares them. */
  inputs: Inputs;
  /** The tool folder, relative to the tools folder. */
  tool: string;
  /** Who called, when the tool has an auth block. */
  auth?: { subject: string | null; claims: Record<string, unknown> };
  /** An output mapper's argument: the rows (or the content blocks) the tool produced. */
  results?: unknown[];
  /** The call's way back to its client. Not enumerable: copying the argument leaves it out. */
  readonly ctx: HyperterseContext;
}

type HyperterseLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

interface HyperterseContext {
  /** A log line for the client (notifications/message), sent when its log level lets it through. */
  log(level: HyperterseLogLevel, message: string, data?: unknown): void;
  /** Progress (notifications/progress), sent only when the caller asked for progress; must increase. */
  progress(done: number, total?: number, message?: string): void;
  /** Reads one of the project's resources, as resources/read would for this caller. */
  readResource(uri: string): Promise<{ contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }> }>;
  /**
   * Asks the user through the client (elicitation/create). Fails when the client did not declare
   * elicitation. With protocol 2026-07-28 the call runs again from the start with the answer.
   */
  elicit(message: string, requestedSchema: Record<string, unknown>, options?: {
    /** Names the question: with protocol 2026-07-28, the key of its input request (default ask-N). */
    key?: string;
  }): Promise<{
    action: 'accept' | 'decline' | 'cancel';
    content?: Record<string, unknown>;
  }>;
  /** Asks the client's model (sampling/createMessage); maxTokens defaults to 1024. */
  sample(messages: string | Array<{ role: 'user' | 'assistant'; content: unknown }>, options?: {
    /** Names the question: with protocol 2026-07-28, the key of its input request (default ask-N). */
    key?: string;
    maxTokens?: number;
    systemPrompt?: string;
    temperature?: number;
    stopSequences?: string[];
    modelPreferences?: Record<string, unknown>;
  }): Promise<{ role: 'assistant'; content: { type: string; text?: string; data?: string; mimeType?: string }; model: string; stopReason?: string }>;
}

type HyperterseBytes = Uint8Array | ArrayBuffer | ArrayBufferView | string;

interface HyperterseContent {
  readonly type: 'text' | 'image' | 'audio' | 'resource' | 'resource_link';
}

/** Image content: bytes, or base64 text, of an image/* type. */
declare function Image(data: HyperterseBytes, mimeType: string): HyperterseContent;
/** Audio content: bytes, or base64 text, of an audio/* type. */
declare function Audio(data: HyperterseBytes, mimeType: string): HyperterseContent;
/** Text content (a plain string in an array of content is text too). */
declare function Text(text: string): HyperterseContent;
/** A file in the answer (an embedded blob resource), named attachment:<name> unless a uri is given. */
declare function BlobResource(data: HyperterseBytes, mimeType: string,
  nameOrOptions?: string | { name?: string; uri?: string }): HyperterseContent;
/** A text document in the answer (an embedded text resource); text/plain unless given. */
declare function TextResource(text: string, mimeType?: string,
  nameOrOptions?: string | { name?: string; uri?: string }): HyperterseContent;
/** A link to a resource the client may read. */
declare function ResourceLink(uri: string, options?: {
  name?: string; title?: string; description?: string; mimeType?: string; size?: number;
}): HyperterseContent;

/** Thrown by a script, its message is shown to the caller as it is. */
declare class ToolError extends Error {
  constructor(message: string, options?: { cause?: unknown });
}

// ---- the sandbox's web platform globals (the editor's lib is ES2022 alone: no DOM, no Node) ----

declare const console: {
  log(...args: unknown[]): void; info(...args: unknown[]): void; debug(...args: unknown[]): void;
  trace(...args: unknown[]): void; warn(...args: unknown[]): void; error(...args: unknown[]): void;
};
/** Only the values the tool's env: list passes in. */
declare const process: { readonly env: Readonly<Record<string, string>> };

/** Header values by lower-case name, with get and has as in the web's Headers. */
type HyperterseHeaders = Readonly<Record<string, string>> & {
  get(name: string): string | null;
  has(name: string): boolean;
};
interface HyperterseResponse {
  readonly url: string; readonly status: number; readonly statusText: string; readonly ok: boolean;
  readonly headers: HyperterseHeaders; readonly bodyUsed: boolean;
  text(): string; json(): any;
}
/** Used directly (synchronously, as Hyperterse's handlers do) or awaited. */
declare function fetch(resource: string | { url: string }, init?: {
  method?: string; headers?: Record<string, string> | Iterable<[string, string]>; body?: unknown;
}): HyperterseResponse & PromiseLike<{
  readonly url: string; readonly status: number; readonly statusText: string; readonly ok: boolean;
  readonly headers: HyperterseHeaders; readonly bodyUsed: boolean; text(): Promise<string>; json(): Promise<any>;
}>;

declare class TextEncoder { encode(input?: string): Uint8Array; }
declare class TextDecoder { constructor(label?: string, options?: { fatal?: boolean }); decode(input?: ArrayBufferView | ArrayBuffer): string; }
declare class URLSearchParams {
  constructor(init?: string | Record<string, string> | Iterable<[string, string]>);
  get(name: string): string | null; getAll(name: string): string[]; has(name: string): boolean;
  set(name: string, value: string): void; append(name: string, value: string): void; delete(name: string): void;
  toString(): string;
}
declare class URL {
  constructor(url: string, base?: string | URL);
  href: string; protocol: string; host: string; hostname: string; port: string; pathname: string;
  search: string; hash: string; readonly origin: string; readonly searchParams: URLSearchParams;
  toString(): string;
}
declare function atob(data: string): string;
declare function btoa(data: string): string;
declare function setTimeout(callback: (...args: any[]) => void, ms?: number, ...args: any[]): number;
declare function clearTimeout(id?: number): void;
declare function queueMicrotask(callback: () => void): void;
declare function structuredClone<T>(value: T): T;
declare const crypto: {
  getRandomValues<T extends ArrayBufferView>(array: T): T;
  randomUUID(): string;
  subtle: { digest(algorithm: string | { name: string }, data: ArrayBufferView | ArrayBuffer): Promise<ArrayBuffer> };
};
