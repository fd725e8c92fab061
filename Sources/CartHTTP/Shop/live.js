// The cart's event stream: one EventSource at a time, opened again after it fails for good.
//
// An EventSource reconnects by itself after a dropped connection (the server asks for one
// second with `retry:`), but gives up when a reconnection is answered with anything but an
// event stream, such as a 503 from a server that is stopping. Then this opens a new one,
// waiting longer each time, up to ten seconds.

/**
 * Watches `url`: `onCart(cart)` for every `cart` event, `onState("open" | "reconnecting")`
 * when the connection comes or goes, `onBroken()` for an event that is not JSON. Answers a
 * function that stops watching.
 */
export function watch(url, { onCart, onState, onBroken }) {
  let source = null;
  let timer = null;
  let delay = 1000;

  function open() {
    timer = null;
    source = new EventSource(url);
    source.addEventListener("open", () => {
      delay = 1000;
      onState("open");
    });
    source.addEventListener("cart", (event) => {
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
      if (source.readyState === EventSource.CLOSED && timer === null) {
        source.close();
        timer = setTimeout(open, delay);
        delay = Math.min(delay * 2, 10000);
      }
    });
  }

  open();
  return () => {
    if (timer !== null) clearTimeout(timer);
    source.close();
  };
}
