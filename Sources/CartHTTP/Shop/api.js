// The cart API as the shop uses it: same-origin JSON requests, and refusals as errors that
// carry the server's code and one-line message.

/** A request the server refused, or one that never reached it (status 0). */
export class Refusal extends Error {
  constructor(status, code, message, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }

  /** The server's error object, with the values a rule's refusal names beside its message
   * (`sku`, `requested`, `limit`); empty for a refusal the server did not answer. */
  get detail() {
    return (this.body && this.body.error) || {};
  }

  /** Whether trying the same request again may work: the server was not reached or was busy. */
  get retryable() {
    return this.status === 0 || this.status === 503;
  }
}

const unreachable = "The shop cannot be reached. Check the connection, then try again.";
const unanswered = "The shop stopped answering. Try again in a moment.";
// A change the shop stopped answering may already be on its way in: asked for again, it
// could be made twice.
const unansweredChange = "The shop stopped answering: this may still be done once it answers again.";

/** The requests waiting for an answer, so that they can be let go once the shop stops
 * answering: a fetch to a server that hangs would wait for ever. */
const waiting = new Set();

/** Ends every request still waiting for an answer with a refusal that says the shop stopped
 * answering (code `unanswered`); a change it asked for may or may not be made. */
export function abandonWaiting() {
  for (const controller of waiting) controller.abort();
}

/** Sends one request and answers its JSON body, or throws a Refusal. With `revalidate` the
 * browser keeps the answer and asks again with its `ETag` (a page of products, which the
 * server answers with 304 while it is unchanged); everything else is never kept. */
export async function send(method, path, { json, headers = {}, revalidate = false } = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers }, cache: revalidate ? "no-cache" : "no-store" };
  if (json !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(json);
  }
  const controller = new AbortController();
  init.signal = controller.signal;
  waiting.add(controller);
  let response;
  let text;
  try {
    response = await fetch(path, init);
    text = await response.text();
  } catch {
    if (controller.signal.aborted) throw new Refusal(0, "unanswered", method === "GET" ? unanswered : unansweredChange);
    throw new Refusal(0, "unreachable", unreachable);
  } finally {
    waiting.delete(controller);
  }
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error = body && body.error;
    throw new Refusal(
      response.status,
      error ? error.code : `http_${response.status}`,
      error ? error.message : `The server answered ${response.status} ${response.statusText}.`,
      body,
    );
  }
  if (body === null) throw new Refusal(response.status, "bad_response", "The server's answer was not JSON.");
  return body;
}

/** The path of a cart, or of something under it. */
export function cartPath(id, rest = "") {
  return `/v1/carts/${encodeURIComponent(id)}${rest}`;
}

/** The path of one line of a cart, and what follows it. */
export function linePath(id, sku, rest = "") {
  return cartPath(id, `/items/${encodeURIComponent(sku)}${rest}`);
}

/** An unguessable idempotency key: 128 random bits as hex. */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return "shop-" + Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * An amount as the server wrote it (an exact decimal string) in the shopper's notation for its
 * currency: "$1.29", "€1.29", "£1.29". The string goes to Intl.NumberFormat as it is, keeping
 * every digit the server wrote and no more, so nothing is rounded or computed. A currency the
 * browser knows no symbol for is written after the number, grouped as any other:
 * "100,000.000 KWD"; text Intl does not take as a currency code, as the server wrote it.
 */
export function money(amount, currency) {
  const digits = amount.includes(".") ? amount.length - amount.indexOf(".") - 1 : 0;
  let parts;
  try {
    parts = numberFormat(currency, digits).formatToParts(amount);
  } catch {
    // Not a currency code Intl accepts.
    return `${amount} ${currency}`;
  }
  if (parts.some((part) => part.type === "currency" && part.value !== currency)) {
    return parts.map((part) => part.value).join("");
  }
  return `${numberFormat(null, digits).format(amount)} ${currency}`;
}

/** The formats made so far, one per currency (null for a plain number) and number of digits:
 * making one costs far more than using it, and a catalog shows thousands of prices. */
const numberFormats = new Map();

function numberFormat(currency, digits) {
  const key = `${currency} ${digits}`;
  let format = numberFormats.get(key);
  if (!format) {
    const style = currency === null ? { style: "decimal" } : { style: "currency", currency };
    format = new Intl.NumberFormat(undefined, {
      ...style, minimumFractionDigits: digits, maximumFractionDigits: digits,
    });
    numberFormats.set(key, format);
  }
  return format;
}
