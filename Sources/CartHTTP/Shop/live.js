// The cart's event stream: one EventSource at a time, opened again after it fails for good.
//
// An EventSource reconnects by itself after a dropped connection (the server asks for one
// second with `retry:`), but gives up when a reconnection is answered with anything but an
// event stream, such as a 503 from a server that is stopping. Then this opens a new one,
// waiting longer each time, up to ten seconds. An EventSource does not tell the status it was
// answered, so the page is told each time (`onClosed`), to find out by reading the cart
// whether the server still recognises it: a 401 is not one a retry gets past.
//
// Nor does an EventSource notice a connection that goes silent: a server that hangs, or a
// network path that died under a sleeping laptop. The server sends a `heartbeat` event at once
// and then at an interval it names; a stream that brings nothing for two intervals and a
// little more counts as lost, and is opened again.

/** How long a stream may bring nothing before it counts as lost: two heartbeat intervals and
 * two seconds. Until a heartbeat (which the server sends first right after the stream's first
 * cart) has named the interval, two of the server's default 15 seconds and a little more; the
 * interval learned holds for the streams opened after, such as the one opened when a hidden
 * page is shown again. */
let silenceMs = 35000;

/**
 * Watches `url`: `onCart(cart)` for every `cart` event, `onState("open" | "reconnecting")`
 * when the connection comes or goes, `onSilent()` when it went silent and is opened again,
 * `onClosed()` when the server answered it with anything but an event stream and it is to be
 * opened again, `onBroken()` for an event that is not JSON. Answers a function that stops
 * watching.
 */
export function watch(url, { onCart, onState, onSilent, onClosed, onBroken }) {
  let source = null;
  let timer = null;
  let delay = 1000;
  let watchdog = null;

  /** Starts the count of silence again: every event, and every attempt to connect. */
  function heard() {
    clearTimeout(watchdog);
    watchdog = setTimeout(silent, silenceMs);
  }

  function silent() {
    source.close();
    onState("reconnecting");
    onSilent();
    reopenLater();
  }

  function reopenLater() {
    clearTimeout(watchdog);
    if (timer !== null) return;
    timer = setTimeout(open, delay);
    delay = Math.min(delay * 2, 10000);
  }

  function open() {
    timer = null;
    source = new EventSource(url);
    // A server that hangs may accept the connection and never answer it.
    heard();
    source.addEventListener("open", () => {
      delay = 1000;
      heard();
      onState("open");
    });
    source.addEventListener("heartbeat", (event) => {
      let interval;
      try {
        interval = JSON.parse(event.data).interval;
      } catch {
        interval = undefined;
      }
      if (typeof interval === "number" && interval > 0) silenceMs = 2 * interval * 1000 + 2000;
      heard();
    });
    source.addEventListener("cart", (event) => {
      heard();
      let cart;
      try {
        cart = JSON.parse(event.data);
      } catch {
        onBroken();
        return;
      }
      onCart(cart);
    });
    source.addEventListener("error", () => {
      onState("reconnecting");
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        reopenLater();
        onClosed();
      } else {
        // The EventSource retries by itself: each attempt may hang as the first did.
        heard();
      }
    });
  }

  open();
  return () => {
    clearTimeout(watchdog);
    if (timer !== null) clearTimeout(timer);
    source.close();
  };
}
