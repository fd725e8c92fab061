// The shop: the product list, the cart sheet and the order history of one cart, kept live
// by the cart's event stream. The server does every sum and writes every amount; the page
// shows what it is sent (amounts with their currency's symbol) and sends what was clicked.
//
// The stream sends the cart only when its JSON changes, so it carries a product change (a
// price, a name, stock, the active flag) only when that change touches this cart. The product
// list is read again after every cart event, and, for the changes no event carries, when the
// page is shown or focused again and every `productRefreshMs` while it is visible.

import { Refusal, abandonWaiting, cartPath, linePath, money, newKey, send } from "./api.js";
import { watch } from "./live.js";
import {
  addingFromList, hideShareLink, hook, isBusy, isOffered, items, productNames, renderCart, renderOrders, renderProducts,
  say, setBusy, shopperWords,
} from "./view.js";

const byID = (id) => document.getElementById(id);
const storageKey = "cart.id";
// The ID of this browser's cart when it came from a link: its items are not moved out of it.
const sharedKey = "cart.shared";
// The ID of the shopper's own cart while one from a link is shown, to go back to.
const ownKey = "cart.own";
const orderPageSize = 5;
// The most orders the server sends in one page.
const maxOrderPage = 10000;
const productRefreshMs = 30000;

const state = {
  cartID: "",
  cart: null,
  products: [],
  // What the shopper is told about the catalog above its list: that it is loading, why its
  // last read failed (the list shown, if any, is the one read before), or nothing once a read
  // has answered ("").
  productsNote: "Loading products…",
  // The most units a line may hold and lines a cart may hold (the store's caps), read with
  // the products.
  maxLineQuantity: Infinity,
  maxLinesPerCart: Infinity,
  orders: [],
  olderAfter: null,
  // Whether the history has been read once: until then a new order cannot be told apart.
  ordersRead: false,
  // Whether a checkout of this page's is on its way, and the orders it placed: the cart they
  // empty is not news.
  placingOrder: false,
  placedHere: new Set(),
  // The cart whose checkout of this page's went unanswered: an order from it that comes
  // after may be that one, so it is not said to come from elsewhere.
  unsureCheckout: null,
  // When a quantity typed into a line was last refused by the page itself, and that refusal
  // (its element and words): it is about what was typed, not about the cart, so a new version
  // of the cart (a change queued before it, say) leaves it shown. Typing again takes it away.
  editRefusedAt: -Infinity,
  typedRefusal: null,
  // The idempotency key of the last checkout click and the cart version it was made for: a
  // click on the same version (a double click, a retry) sends the same key.
  checkout: null,
  // Whether the next cart is taken whatever its version: the first one after the stream
  // (re)opens, since a cart that was pruned starts again from version 0.
  takeAnyVersion: true,
  // The version of the last cart the event stream sent: the stream sends in order, so one
  // lower than that is the cart made again (pruned, then changed), not a late answer.
  streamVersion: null,
  // Why the cart the address named is not the one shown, while the page is open.
  notice: "",
  // Whether the event stream is open: the browser saying it is back online then means the
  // shop can be reached again.
  streamOpen: false,
};

/** Shows `cart` if it is not older than the one shown, or if the event stream sent it
 * (`fromStream`) after one of a higher version. */
function showCart(cart, { fromStream = false } = {}) {
  const madeAgain = fromStream && state.streamVersion !== null && cart.version < state.streamVersion;
  if (fromStream) state.streamVersion = cart.version;
  if (state.cart && !state.takeAnyVersion && !madeAgain && cart.version < state.cart.version) return;
  state.takeAnyVersion = false;
  const before = state.cart;
  state.cart = cart;
  // A refusal was about the cart as it was: once the cart has changed, it no longer holds,
  // and nor does the notice that the address named another cart.
  if (before && before.version !== cart.version) {
    clearRefusals();
    if (state.notice) notify("");
  }
  renderCart(cart, state.products, state.maxLineQuantity);
  renderProducts(state.products, cart, state.maxLineQuantity, state.maxLinesPerCart, state.productsNote);
  if (cart.totalItems > 0) say(byID("order-confirmation"), "");
  // A cart that changed and is empty may have been checked out, here or anywhere else, also
  // when the lines and the checkout came between two events.
  if (before && before.version !== cart.version && cart.totalItems === 0) {
    // Emptied by no checkout of this page's: an order placed meanwhile (in another tab or
    // browser the cart was shared with, or the CLI) is said in the sheet.
    loadOrders({ sayNewOrder: before.totalItems > 0 && !state.placingOrder });
  }
}

/** Shows `message` in the banner for failures that belong to no control. */
function pageError(message) {
  say(byID("page-error"), message);
}

/** Shows `text`, about the cart the page's address named, in the banner for notices. */
function notify(text) {
  state.notice = text;
  say(byID("page-notice"), text);
}

/** How long after the page refused a typed quantity a click on Checkout is taken as the
 * same gesture (the field's change comes as the click takes the focus from it). */
const editRefusalMs = 1000;

/** The changes to the cart on their way, each resolving to whether it was made: checkout
 * waits for them (a quantity typed and then Checkout clicked sends the change as the field
 * loses the focus, just before the click). */
const changesOnTheirWay = new Set();

/** The last change of each line on its way, by SKU: a line's changes are sent one after
 * another, in the order the shopper made them, whichever control made them (a quantity typed,
 * then + clicked; + then the line's delete; a row's Add and the sheet's −). */
const lineChanges = new Map();

/**
 * Runs `work` for `button`, a control of the line of `sku`, once the line's changes made
 * before it are answered: busy meanwhile, its refusal shown in `refusal`. Each click on + and
 * − (`repeatable`) is a unit, and each quantity typed is sent, in its turn; one whose control
 * has gone off or away by then (+ at the stock, the line deleted), and a + or − after a
 * refused change of its line, are dropped. A second click on a busy Add or delete is the same
 * intent as the first, and is dropped. Resolves to whether the change was made; a dropped
 * one, to whether the line's change before it was.
 */
function attempt(button, refusal, work, { sku, repeatable = false } = {}) {
  const typed = button instanceof HTMLInputElement;
  if (isBusy(button) && !repeatable && !typed) return Promise.resolve(true);
  const before = lineChanges.get(sku);
  // Its control gone (the line deleted, the row's stepper hidden) or off (+ at the stock), or
  // a + or − after a refused change of the line: dropped, which is no failure of its own, so
  // it answers what the change before it did (and a refusal drops every click after it).
  const dropped = (previousMade) =>
    !button.isConnected || !isOffered(button) || button.closest("[hidden]") !== null || (repeatable && !previousMade);
  const run = (previousMade) => (before && dropped(previousMade) ? previousMade : attemptNow(button, refusal, work));
  const change = before ? before.then(run, () => run(false)) : run(true);
  lineChanges.set(sku, change);
  changesOnTheirWay.add(change);
  const forget = () => {
    changesOnTheirWay.delete(change);
    if (lineChanges.get(sku) === change) lineChanges.delete(sku);
  };
  change.then(forget, forget);
  return change;
}

async function attemptNow(button, refusal, work) {
  setBusy(button, true);
  say(refusal, "");
  try {
    showCart(await patiently(refusal, work));
    return true;
  } catch (error) {
    refused(refusal, error);
    return false;
  } finally {
    setBusy(button, false);
  }
}

/** Hides the refusals shown beside the controls; with `retryableOnly`, only those that said
 * the shop could not be reached or was busy. */
function clearRefusals({ retryableOnly = false } = {}) {
  const typed = state.typedRefusal;
  for (const element of document.querySelectorAll('[data-testid="refusal"], #cart-refusal, #products-refusal')) {
    if (typed && element === typed.element && element.textContent === typed.words) continue;
    if (!retryableOnly || element.dataset.retryable === "true") say(element, "");
  }
}

/** Shows what the server says is true now, then the refusal's message in `element`. */
function refused(element, error) {
  if (!(error instanceof Refusal)) throw error;
  if (error.body && error.body.cart) showCart(error.body.cart);
  // A product that is gone or off sale leaves the list when it is read again, and its row
  // with it: the refusal is shown above the list instead.
  const productGone = error.code === "unknown_product" || error.code === "inactive_product";
  const target = productGone && element.closest("#products") ? byID("products-refusal") : element;
  const words = shopperText(error);
  say(target, words);
  target.dataset.retryable = String(Boolean(error.retryable));
  const holds = productCondition(error);
  if (holds) productRefusals.set(target, { words, after: productReads, holds });
  else productRefusals.delete(target);
  // The page's cart may be one the server no longer recognises: read, and replaced if so.
  if (error.code === "unauthorized") checkCart();
  // A changed total comes from changed prices, which the product list shows too.
  if (error.status === 404 || error.status === 422 || error.code === "total_changed") {
    // Once the list is drawn without the row, which may have been far down it (the focus has
    // moved to a row nearby), the words above the list are brought into view.
    const read = refreshProducts();
    if (target !== element) read.then(() => target.scrollIntoView({ block: "nearest" }));
    // A refusal without the cart (a checkout the stock no longer covers) may come before the
    // event that marks the lines, or without one while the stream is down.
    if (!(error.body && error.body.cart)) reloadCart();
  }
}

/** The refusals shown that rest on what the product list says of one product (its stock, or
 * that it is for sale), by element: each with its words, the count of product reads begun
 * before it, and whether a product list bears it out. A read begun after it that does not
 * takes it away, as a new version of the cart takes every refusal away: a restock, or a
 * product back on sale, changes no cart. */
const productRefusals = new Map();

/** How many reads of the product list have begun. */
let productReads = 0;

/** Whether a product list still bears out the refusal `error`, as a test of that list, when
 * the refusal rests on one product's stock (the same stock) or sale (still not listed); else
 * null. */
function productCondition(error) {
  const short = stockRefused(error);
  if (short) return (products) => products.find((product) => product.sku === short.sku)?.stock === short.stock;
  const gone = (error.code === "unknown_product" || error.code === "inactive_product") && error.detail.sku;
  if (gone) return (products) => !products.some((product) => product.sku === gone);
  return null;
}

/** The SKU and the stock a refusal for want of stock names, or null for any other refusal. */
function stockRefused(error) {
  const { sku, limit } = error.detail;
  if (error.code !== "insufficient_stock" || typeof sku !== "string" || !Number.isInteger(limit)) return null;
  return { sku, stock: limit };
}

/** Takes away the refusals resting on a product that `products`, from the read numbered
 * `read`, no longer bears out. */
function clearOutdatedRefusals(products, read) {
  for (const [element, refusal] of productRefusals) {
    // Cleared or replaced meanwhile, it is no longer this refusal.
    if (!element.isConnected || element.textContent !== refusal.words) productRefusals.delete(element);
    else if (read > refusal.after && !refusal.holds(products)) {
      say(element, "");
      productRefusals.delete(element);
    }
  }
}

/** Reads the cart again and shows it. */
async function reloadCart() {
  try {
    showCart(await send("GET", cartPath(state.cartID)));
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
  }
}

/** A refusal in the shopper's words; a version conflict, which only says the cart moved on,
 * a cart the server did not mint, and a product gone or off sale, whose SKU the page knows a
 * name for, are said plainly. */
function shopperText(error) {
  if (error.code === "version_conflict") return "Your cart changed meanwhile. Check it, then try again.";
  if (error.code === "unauthorized") return "The shop no longer recognises this cart.";
  if (error.code === "total_changed" && error.body && error.body.cart) {
    const cart = error.body.cart;
    return `Prices changed: your total is now ${money(cart.subtotal, cart.currency)}. Check your cart, then place the order again.`;
  }
  const names = productNames(state.products, state.cart);
  const short = stockRefused(error);
  if (short) return stockWords(names.get(short.sku) || short.sku, short.stock);
  if (error.code === "line_quantity_cap_exceeded" && Number.isInteger(error.detail.limit)) return capWords(error.detail.limit);
  const gone = { unknown_product: "is no longer sold", inactive_product: "is not for sale" }[error.code];
  if (gone && names.has(error.detail.sku)) return `${names.get(error.detail.sku)} ${gone}.`;
  return shopperWords(error.message, state.cartID, names);
}

// Product rows and cart lines share their controls: Add and + add a unit, − takes one out,
// the line's delete control removes the line.
function lineAction(event) {
  const button = event.target.closest("button[data-testid]");
  const row = event.target.closest("[data-sku]");
  if (!button || !row || !isOffered(button)) return;
  const control = button.dataset.testid;
  // Add turns into the stepper in its place, so the second click of a double click on Add
  // lands on +: it is the same intent as the first.
  if (control === "add") lastAdd = { row, event };
  if (control === "increment" && secondClickOfAdd(event, row)) return;
  // The next click of a double click whose first took its line away (×, or − at one unit) lands
  // on the line that slid into its place: it is not aimed at that line.
  const sequence = lastClick;
  lastClick = { row, event };
  if (event.detail > 1 && sequence && sequence.row !== row && event.timeStamp - sequence.event.timeStamp < 500) return;
  const sku = row.dataset.sku;
  const refusal = hook(row, "refusal");
  const id = state.cartID;
  const adding = () => addUnit(id, sku, refusal);
  const work = {
    add: adding,
    increment: adding,
    decrement: () => send("POST", linePath(id, sku, "/remove"), { json: { quantity: 1 } }),
    "line-delete": () => send("DELETE", linePath(id, sku)),
  }[control];
  const repeatable = control === "increment" || control === "decrement";
  if (work) attempt(button, refusal, work, { sku, repeatable });
}

/** The last click on an Add and its row. */
let lastAdd = null;

/** The last click on a control of a row or line, and its row. */
let lastClick = null;

/** Whether the click `event` on the + of `row` is the next click of the sequence whose click
 * on that row's Add the + took the place of. */
function secondClickOfAdd(event, row) {
  return lastAdd !== null && lastAdd.row === row && event.detail === lastAdd.event.detail + 1
    && event.timeStamp - lastAdd.event.timeStamp < 500;
}

/** Adds a unit of `sku` to the cart `id` and answers the cart. A price the server charges
 * other than the one the page shows (changed since the list was read) is said in `refusal`
 * once the cart is shown, and a new line says what the row showed ("was"), so a unit is
 * never added at a price the shopper did not see without a word. */
async function addUnit(id, sku, refusal) {
  const shown = state.products.find((product) => product.sku === sku);
  const post = () => send("POST", cartPath(id, "/items"), { json: { sku, quantity: 1 } });
  const cart = shown ? await addingFromList(sku, shown.price, post) : await post();
  const line = cart.items.find((candidate) => candidate.sku === sku);
  if (shown && line && line.unitPrice !== shown.price) {
    // After the cart is drawn: drawing a new version clears the refusals shown before it.
    setTimeout(() => say(refusal,
      `${line.name} costs ${money(line.unitPrice, line.currency)} now, not the ${money(shown.price, shown.currency)} shown.`));
    refreshProducts();
  }
  return cart;
}

/** Places the cart's order once per click; a retry of the same click sends the same key. */
async function checkout(event) {
  // The second click of a double click is the same intent as the first.
  if (event.detail > 1) return;
  const button = byID("checkout");
  const refusal = byID("cart-refusal");
  if (isBusy(button) || !state.cart) return;
  // A cart with problems: the note the button is described by already says why.
  if (button.getAttribute("aria-disabled") === "true") return;
  // A quantity typed and refused here as the click took the focus from its field: the
  // refusal beside the line says why no order is placed.
  if (event.timeStamp - state.editRefusedAt < editRefusalMs) return;
  setBusy(button, true, "Placing order…");
  say(refusal, "");
  state.placingOrder = true;
  state.unsureCheckout = null;
  try {
    // The shopper's own changes on their way come first; one refused stops the order, its
    // refusal shown by its line, as does a change that leaves the cart with a problem.
    if (changesOnTheirWay.size > 0) {
      const made = await Promise.all(changesOnTheirWay);
      if (button.getAttribute("aria-disabled") === "true") return;
      if (made.includes(false)) {
        // Its refusal may be gone already, cleared by a change after it.
        say(refusal, "A change to your cart did not go through: check your cart, then place the order again.");
        return;
      }
    }
    const version = state.cart.version;
    const shown = state.cart.subtotal;
    if (!state.checkout || state.checkout.version !== version || state.checkout.cartID !== state.cartID) {
      state.checkout = { key: newKey(), version, cartID: state.cartID };
    }
    const headers = { "Idempotency-Key": state.checkout.key, "If-Match": `"${version}"` };
    // The order is placed only at the total the shopper sees: a price changed meanwhile is
    // shown first, not charged.
    const json = { expectedTotal: shown };
    const result = await patiently(refusal,
      () => withRetries(() => send("POST", cartPath(state.cartID, "/checkout"), { headers, json }), refusal));
    state.placedHere.add(result.order.number);
    say(byID("order-confirmation"), confirmation(result.order, shown));
    // The order is placed, so the cart it was placed from is empty: it shows so at once
    // (unless the stream has brought a later cart). Reading it again brings its new version;
    // should that read fail, the connection is in trouble, not the order.
    if (state.cart.version === version) {
      const zero = result.order.total.replace(/\d/g, "0");
      showCart({ ...state.cart, items: [], problems: [], totalItems: 0, subtotal: zero });
    }
    byID("cart-done").focus();
    loadOrders();
    send("GET", cartPath(state.cartID)).then((cart) => showCart(cart), () => {});
  } catch (error) {
    // Unanswered, the order may have been placed all the same.
    if (error instanceof Refusal && error.status === 0) state.unsureCheckout = state.cartID;
    refused(refusal, error);
  } finally {
    state.placingOrder = false;
    setBusy(button, false);
  }
}

/** What the confirmation says of `order`: what was charged, and that prices changed when
 * the total is not the `shown` subtotal the shopper saw at the click. */
function confirmation(order, shown) {
  const charged = money(order.total, order.currency);
  const changed = order.total !== shown ? ` (prices changed since the cart showed ${money(shown, order.currency)})` : "";
  return `Order #${order.number} placed: ${items(order.totalItems)}, ${charged}${changed}`;
}

/** What a control says while its request has been on its way for `slowMs`. */
const slowWords = "The shop is slow to answer; still waiting…";
const slowMs = 4000;

/** Answers what `work()` resolves to; while it takes longer than `slowMs`, `element` says the
 * shop is slow, so a shopper facing a stalled server is not left with a dimmed button only. */
async function patiently(element, work) {
  // A control that already says why it waits (the shop cannot be reached) keeps saying so.
  const slow = setTimeout(() => { if (!element.textContent) say(element, slowWords); }, slowMs);
  try {
    return await work();
  } finally {
    clearTimeout(slow);
    if (element.textContent === slowWords || element.textContent === retryingWords) say(element, "");
  }
}

/** What a control says while its request waits to be tried again because the shop cannot be
 * reached. */
const retryingWords = "The shop cannot be reached; trying again…";

/** `work()`, tried up to three times while the server cannot be reached or is busy; not once
 * it stopped answering, which a retry would wait on again. While the server cannot be
 * reached, `element` says so. */
async function withRetries(work, element) {
  for (let delay = 500; ; delay *= 3) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof Refusal) || !error.retryable || error.code === "unanswered" || delay > 4500) throw error;
      if (error.code === "unreachable") say(element, retryingWords);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

async function clearCart() {
  const button = byID("confirm-yes");
  const refusal = byID("confirm-refusal");
  if (isBusy(button)) return;
  setBusy(button, true, "Clearing…");
  say(refusal, "");
  try {
    showCart(await patiently(refusal, () => send("DELETE", cartPath(state.cartID, "/items"))));
    byID("confirm-clear").close();
    byID("cart-done").focus();
  } catch (error) {
    refused(refusal, error);
  } finally {
    setBusy(button, false);
  }
}

// One product request at a time: one asked for meanwhile runs once after it, so a burst of
// events costs at most one more request, and answers arrive in the order they were asked.
let productsRequest = null;
let productsAgain = false;

/** Reads the product list again and shows it; answers when the list shown is current. */
function refreshProducts() {
  if (productsRequest) {
    productsAgain = true;
    return productsRequest;
  }
  productsRequest = (async () => {
    try {
      do {
        productsAgain = false;
        await loadProducts();
      } while (productsAgain);
    } finally {
      productsRequest = null;
    }
  })();
  return productsRequest;
}

/** Every product for sale, page after page, and the store's per-line cap. */
async function loadProducts() {
  const read = ++productReads;
  try {
    const products = [];
    let after = null;
    do {
      const query = after === null ? "" : `?${new URLSearchParams({ after })}`;
      const page = await send("GET", `/v1/products${query}`, { revalidate: true });
      products.push(...page.products);
      after = page.next ?? null;
    } while (after !== null);
    const settings = await send("GET", "/v1/settings");
    // Taken together once both have answered, so the list and its note never disagree.
    state.products = products;
    state.maxLineQuantity = settings.maxLineQuantity;
    state.maxLinesPerCart = settings.maxLinesPerCart;
    state.productsNote = "";
    clearOutdatedRefusals(products, read);
    if (state.cart) renderCart(state.cart, state.products, state.maxLineQuantity);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    state.productsNote = state.products.length > 0
      ? `The product list could not be updated: ${error.message}`
      : `The products could not be loaded: ${error.message}`;
  }
  renderProducts(state.products, state.cart, state.maxLineQuantity, state.maxLinesPerCart, state.productsNote);
}

// Reads of the order history may answer out of order: one asked before the one shown last is
// dropped, so an older list never replaces a newer one.
let ordersAsked = 0;
let ordersShown = 0;

/** The newest page of orders, or with `older` the page after those shown. */
async function loadOrders({ older = false, sayNewOrder = false } = {}) {
  const asked = ++ordersAsked;
  // Read again from the newest, the history keeps as many orders as it shows.
  const limit = older ? orderPageSize : Math.min(Math.max(orderPageSize, state.orders.length), maxOrderPage);
  const query = new URLSearchParams({ limit: String(limit) });
  if (older) query.set("after", String(state.olderAfter));
  const refusal = byID("orders-refusal");
  const newestShown = state.ordersRead ? (state.orders[0]?.number ?? 0) : null;
  try {
    const page = await send("GET", cartPath(state.cartID, `/orders?${query}`));
    if (asked < ordersShown) return;
    ordersShown = asked;
    const newest = page.orders[0];
    if (sayNewOrder && !state.placingOrder && newestShown !== null && newest && newest.number > newestShown
      && !state.placedHere.has(newest.number)) {
      const where = state.unsureCheckout === state.cartID ? "" : " elsewhere";
      state.unsureCheckout = null;
      say(byID("order-confirmation"),
        `Order #${newest.number} was placed from this cart${where}: ${items(newest.totalItems)}, ${money(newest.total, newest.currency)}`);
    }
    state.ordersRead = true;
    state.orders = older ? state.orders.concat(page.orders) : page.orders;
    state.olderAfter = page.next;
    renderOrders(state.orders, page.next !== null);
    say(refusal, "");
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    if (asked < ordersShown) return;
    say(refusal, `The orders could not be loaded: ${shopperText(error)}`);
    if (error.code === "unauthorized") checkCart();
  }
}

/** Keeps `id` as this browser's cart; `shared` when it was opened from a link, with `own`
 * the shopper's own cart to go back to (undefined keeps the one remembered, null forgets it). */
function remember(id, { shared = false, own } = {}) {
  try {
    if (id) localStorage.setItem(storageKey, id);
    else localStorage.removeItem(storageKey);
    if (shared) localStorage.setItem(sharedKey, id);
    else localStorage.removeItem(sharedKey);
    if (!shared || own === null) localStorage.removeItem(ownKey);
    else if (own) localStorage.setItem(ownKey, own);
  } catch {
    // Storage may be off; the cart then lasts as long as the page.
  }
}

function recall(key = storageKey) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Whether this browser's cart `id` was opened from a link, so it is someone else's too. */
function openedFromLink(id) {
  try {
    return localStorage.getItem(sharedKey) === id;
  } catch {
    return false;
  }
}

/** What an ID the server mints looks like: `shop_`, 64 hexadecimal digits. */
const mintedShape = /^shop_[0-9a-f]{64}$/;

/**
 * The cart to show: the one `?cart=ID` names, else the one this browser was given before,
 * else a new one the server mints. Answers the cart as the server has it, and a notice when
 * the address named a cart that cannot be opened (the page then goes on with its own cart) or
 * one shared by a link. When this browser's cart has items, the shopper is asked first whether
 * to open the shared cart, which moves them into it unless that cart came from a link too.
 */
async function chooseCart() {
  const parameters = new URLSearchParams(location.search);
  const given = (parameters.get("cart") || "").trim();
  let notice = "";
  // An empty `?cart=` names nothing: it leaves the address like any other.
  if (parameters.has("cart") && !given) forgetAddress();
  // Only a cart the server minted is a shopper's: a name such as `alice` is a cart of the
  // CLI's, which a server without a token would open, and this browser's lines would join it.
  // The shape is all the page can check; an ID of this shape the server did not mint, which
  // such a server also opens, is a new, empty cart of nobody else's.
  if (given && !mintedShape.test(given)) {
    notice = cannotOpen();
    forgetAddress();
  } else if (given) {
    let cart = null;
    try {
      cart = await send("GET", cartPath(given));
    } catch (error) {
      if (!(error instanceof Refusal) || error.retryable) throw error;
      notice = cannotOpen(notRecognised(error) ? undefined : "cannot be opened right now");
      forgetAddress();
    }
    if (cart) {
      const earlier = recall();
      const held = earlier && earlier !== given ? await cartIfAny(earlier) : null;
      // A cart that itself came from a link is someone else's too: its items stay in it.
      const heldShared = Boolean(held) && openedFromLink(held.cart);
      let chosen;
      if (earlier === given) {
        chosen = { cart, notice };
      } else if (held && held.totalItems > 0 && cart.version === 0) {
        // A cart never written was shared by nobody (Share is offered only for a cart with
        // items; a server without an admin token reads any ID of a minted cart's shape as
        // one): the shopper's items are not moved into it, nor asked about.
        chosen = { cart: held, notice: cannotOpen("was never used") };
      } else if (held && held.totalItems > 0 && !(await shareInto(cart, held, heldShared))) {
        chosen = { cart: held, notice: "You kept your cart; the shared cart was not opened." };
      } else {
        const holding = Boolean(held) && held.totalItems > 0;
        const left = holding && heldShared ? " The cart you had, from another link, was left as it was." : "";
        chosen = holding && !heldShared ? await joinEarlierCart(held, given) : { cart, notice: sharedNotice + left };
        // The cart to go back to: the one held, unless it came from a link too.
        remember(given, { shared: true, own: heldShared ? undefined : held ? held.cart : null });
      }
      forgetAddress();
      return chosen;
    }
  }
  const stored = recall();
  if (stored) {
    try {
      return { cart: await send("GET", cartPath(stored)), notice };
    } catch (error) {
      // Only a cart this server no longer recognises is replaced by a new one: any other
      // failure keeps it, and the page asks for it again.
      if (!notRecognised(error)) throw error;
      notice = [notice, lostCartNotice].filter(Boolean).join(" ");
    }
  }
  const minted = await send("POST", "/v1/carts");
  remember(minted.cart);
  return { cart: minted, notice };
}

/** What the page says when the address names a cart it does not open (`why`: it cannot be
 * opened here, or right now, or it was never used): it goes on with the cart this browser
 * has, which may itself be one from a link. */
function cannotOpen(why = "cannot be opened here") {
  const stored = recall();
  const yours = stored && openedFromLink(stored) ? "the shared cart you had open" : "your own cart";
  return `The cart in this page's address ${why}, so this is ${yours}.`;
}

/** What a shopper following a cart link is told: the link is as good as a key. */
const sharedNotice = "This cart came from a link: whoever has the link can see and change it.";

/** The cart `id`, or null when the server no longer recognises it. */
async function cartIfAny(id) {
  try {
    return await send("GET", cartPath(id));
  } catch (error) {
    if (!notRecognised(error)) throw error;
    return null;
  }
}

/** Whether `error` says the server does not recognise the cart asked for: one it did not
 * mint (401: its cart key is not the one that minted it, as on another store or one without
 * the old secret), or an ID it cannot read (400, or a path it does not route, 404). Only
 * such a cart is given up; the server failing to read one it knows is no reason to. */
function notRecognised(error) {
  return error instanceof Refusal
    && (error.status === 401 || error.status === 404 || error.code === "invalid_cart_id");
}

/** What the shopper is told when the cart this browser had is replaced by a new one. */
const lostCartNotice = "Your earlier cart could not be found, so a new cart was started.";

/**
 * Asks the shopper, whose cart `held` has items, whether to open the shared cart `shared` the
 * address names, and, unless `held` came from a link itself (`heldShared`), move those items
 * into it: a link from someone else must not take a shopper's cart, and what they add and
 * order afterwards, without their word. Resolves true to open it.
 */
function shareInto(shared, held, heldShared) {
  const dialog = byID("confirm-link");
  const yours = heldShared
    ? `The cart you have now came from another link; its ${items(held.totalItems)} stay in it.`
    : `Opening it moves the ${items(held.totalItems)} in your cart into it, and shows its orders instead of yours.`;
  byID("link-text").textContent =
    `This link opens a cart someone shared, holding ${items(shared.totalItems)}. Whoever has the link can see and change ` +
    `it and its orders. ${yours}`;
  return new Promise((resolve) => {
    const answered = new AbortController();
    const answer = (open) => () => {
      answered.abort();
      dialog.close();
      // The dialog opened as the page loaded, so the focus it gives back is the page's: the
      // cart button is where the shopper's cart is.
      byID("cart-open").focus();
      resolve(open);
    };
    byID("link-open").addEventListener("click", answer(true), { signal: answered.signal });
    byID("link-keep").addEventListener("click", answer(false), { signal: answered.signal });
    // Escape closes the dialog: the shopper keeps their cart.
    dialog.addEventListener("cancel", answer(false), { signal: answered.signal });
    dialog.showModal();
  });
}

/**
 * Moves the lines of the cart this browser had before (`asked` about) into the cart the address names,
 * so that following a cart link loses nothing it can hold; answers that cart and a notice
 * saying what was added and naming what the shared cart could not take.
 */
async function joinEarlierCart(asked, given) {
  // Read again: the cart may have changed in another tab while the shopper was asked.
  const held = await cartIfAny(asked.cart);
  if (!held || held.totalItems === 0) return { cart: await send("GET", cartPath(given)), notice: sharedNotice };
  const earlierItems = items(held.totalItems);
  try {
    const result = await send("POST", cartPath(given, "/merge"), { json: { from: held.cart } });
    const names = new Map(held.items.map((line) => [line.sku, line.name]));
    const left = result.adjustments.map((adjustment) => ({
      units: adjustment.requested - adjustment.kept,
      text: `${names.get(adjustment.sku) || adjustment.sku} (${leftOutReason(adjustment)})`,
    }));
    const leftUnits = left.reduce((sum, line) => sum + line.units, 0);
    const added = held.totalItems - leftUnits;
    const were = added === 1 ? "was" : "were";
    const notice = leftUnits === 0
      ? `${earlierItems} from your cart ${were} added to this shared one.`
      : `${items(added)} of the ${earlierItems} from your cart ${were} added to this shared one; `
        + `${items(leftUnits)} could not be: ${left.map((line) => line.text).join(", ")}.`;
    return { cart: result.cart, notice: `${notice} ${sharedNotice}` };
  } catch (error) {
    if (!(error instanceof Refusal) || error.retryable) throw error;
    return { cart: await send("GET", cartPath(given)), notice: `Your cart (${earlierItems}) could not be added to this shared one. ${sharedNotice}` };
  }
}

/** Why a merge left units of a line out, in the shopper's words. */
function leftOutReason(adjustment) {
  switch (adjustment.reason) {
    case "insufficient_stock": return `only ${adjustment.limit} in stock`;
    case "line_quantity_cap": return `at most ${adjustment.limit} of one product in a cart`;
    case "line_count_cap": return `a cart holds at most ${adjustment.limit} products`;
    case "inactive_product": return "no longer for sale";
    default: return "not added";
  }
}

/** Takes `?cart=` out of the address once it is used, so a copied address shares no cart. */
function forgetAddress() {
  const url = new URL(location.href);
  url.searchParams.delete("cart");
  history.replaceState(history.state, "", url);
}

/** Says `words` about the connection in the open sheet's own status region: the sheet is
 * modal, so the banner behind it is not announced. */
function sayInSheet(words) {
  if (byID("cart").open) byID("sheet-connection").textContent = words;
}

function connection(status) {
  const banner = byID("connection");
  if (status === "open") {
    if (banner.textContent !== "") {
      // Back after a drop: the orders placed meanwhile come again (the products come with
      // the stream's first cart event), and the open sheet says so.
      loadOrders();
      sayInSheet("Connected to the shop again.");
    }
    say(banner, "");
    pageError("");
    // What was refused because the shop could not be reached may work now; a refusal the
    // server gave still holds.
    clearRefusals({ retryableOnly: true });
  } else {
    // Written once per drop: the stream's retries every second say nothing new.
    const lost = "Connection to the shop lost. Reconnecting…";
    if (banner.textContent !== lost) {
      say(banner, lost);
      sayInSheet(lost);
    }
    state.takeAnyVersion = true;
  }
}

/** The quantity typed into a cart line, sent when the shopper commits it (Enter, or leaving
 * the field); 0 removes the line. Escape puts back the line's quantity. */
function typedQuantity(event) {
  const input = event.target;
  const row = input.closest("[data-sku]");
  if (!(input instanceof HTMLInputElement) || !row) return;
  const sku = row.dataset.sku;
  const restore = () => {
    delete input.dataset.edited;
    input.value = String(storedQuantity(sku) ?? input.value);
  };
  if (event.type === "input") {
    input.dataset.edited = "true";
    const typed = state.typedRefusal;
    if (typed && row.contains(typed.element)) {
      if (typed.element.textContent === typed.words) say(typed.element, "");
      state.typedRefusal = null;
    }
    return;
  }
  if (event.type === "keydown") {
    if (event.key === "Escape" && input.dataset.edited === "true") {
      // Only the edit is undone; the sheet stays open.
      event.preventDefault();
      restore();
    }
    // Enter commits what was typed, also the quantity the field showed already (no `change`
    // then): while the line's changes are on their way, it may not be what the line will hold.
    if (event.key !== "Enter") return;
  }
  if (input.dataset.edited !== "true") return;
  const text = input.value.trim();
  const refusal = hook(row, "refusal");
  if (!/^[0-9]{1,9}$/.test(text)) {
    restore();
    refuseTyped(refusal, "Type a whole number of units; 0 takes the line out.", event);
    return;
  }
  const quantity = Number(text);
  delete input.dataset.edited;
  // While changes to the line are on their way, the quantity shown is not yet what the line
  // will hold before this one: it is sent in its turn, and the server judges it.
  const queued = lineChanges.has(sku);
  if (!queued && quantity === storedQuantity(sku)) return;
  // What the page knows the server would refuse is said without asking it, as + is not
  // offered at the stock or the cap.
  const beyond = queued ? null : beyondWhatIsShown(sku, quantity);
  if (beyond) {
    restore();
    refuseTyped(refusal, beyond, event);
    return;
  }
  const id = state.cartID;
  // After a refusal too, the field shows what the cart holds.
  attempt(input, refusal, () => send("PUT", linePath(id, sku), { json: { quantity } }), { sku })
    .finally(() => { if (input.dataset.edited !== "true") restore(); });
}

/** Says in `element` why the quantity typed was not sent, at the time of `event`. */
function refuseTyped(element, words, event) {
  say(element, words);
  state.typedRefusal = { element, words };
  state.editRefusedAt = event.timeStamp;
}

/** Why the page already knows that growing the line of `sku` to `quantity` units would be
 * refused: over the per-line cap, or more than the stock the product list shows; else null.
 * A line may always come down, also while it is above a cap lowered since. */
function beyondWhatIsShown(sku, quantity) {
  if (quantity <= (storedQuantity(sku) ?? 0)) return null;
  if (quantity > state.maxLineQuantity) return capWords(state.maxLineQuantity);
  const product = state.products.find((candidate) => candidate.sku === sku);
  if (!product || product.stock == null || quantity <= product.stock) return null;
  return stockWords(product.name, product.stock);
}

/** The per-line cap in the shopper's words, whether the page or the server refused. */
function capWords(maxLineQuantity) {
  return `${maxLineQuantity} of one product is the most a cart can hold.`;
}

/** The stock of the product `name` in the shopper's words. */
function stockWords(name, stock) {
  return stock === 0 ? `${name} is out of stock.` : `Only ${stock} of ${name} left.`;
}

/** The quantity of `sku` in the cart shown, if it has that line. */
function storedQuantity(sku) {
  return state.cart?.items.find((item) => item.sku === sku)?.quantity;
}

function wire() {
  byID("products").addEventListener("click", lineAction);
  byID("product-search").addEventListener("input", () =>
    renderProducts(state.products, state.cart, state.maxLineQuantity, state.maxLinesPerCart, state.productsNote,
      { typing: true }));
  byID("cart-lines").addEventListener("click", lineAction);
  byID("cart-problems").addEventListener("click", lineAction);
  for (const type of ["input", "change", "keydown", "focusout"]) byID("cart-lines").addEventListener(type, typedQuantity);
  const sheet = byID("cart");
  // The open sheet is an entry in the session history, so Back closes it, as on a phone, and
  // Forward opens it again.
  const sheetInHistory = () => Boolean(history.state && history.state.sheet);
  // Whether the sheet took its own entry away (Done, Escape, the backdrop), so that the focus
  // comes back to the cart button once the history has moved, which may move it elsewhere
  // (to a `#orders` target).
  let leavingSheetEntry = false;
  // The browser knows it is offline before the stream does, and an open stream that the
  // network comes back under never reopens: both are said as the stream's own would be.
  window.addEventListener("offline", () => connection("reconnecting"));
  window.addEventListener("online", () => {
    if (state.streamOpen) connection("open");
  });
  byID("cart-open").addEventListener("click", () => {
    // The modal sheet hides the banner from screen readers: it says a lost connection itself.
    const lost = byID("connection").textContent;
    sheet.showModal();
    if (lost !== "") sayInSheet(lost);
    // Opened again before the entry of the sheet just closed has gone, the sheet keeps that
    // entry, or takes a new one once it has gone (below).
    if (!sheetInHistory()) history.pushState({ sheet: true }, "");
    byID("cart-done").focus();
  });
  window.addEventListener("popstate", () => {
    if (leavingSheetEntry) {
      leavingSheetEntry = false;
      if (!sheet.open) byID("cart-open").focus();
      else if (!sheetInHistory()) history.pushState({ sheet: true }, "");
    } else if (sheetInHistory() && !sheet.open) {
      sheet.showModal();
      byID("cart-done").focus();
    } else if (!sheetInHistory() && sheet.open) {
      // Back while the sheet asks whether to clear the cart answers no, and closes both.
      const asking = byID("confirm-clear");
      if (asking.open) asking.close();
      sheet.close();
    }
  });
  byID("cart-done").addEventListener("click", () => sheet.close());
  sheet.addEventListener("close", () => {
    // Opened again before this event came: the sheet stays, and so does its entry.
    if (sheet.open) return;
    hideShareLink();
    // Closed by Done, Escape or the backdrop: its history entry goes too, once.
    if (sheetInHistory() && !leavingSheetEntry) {
      leavingSheetEntry = true;
      history.back();
    }
    byID("cart-open").focus();
  });
  // A reload keeps the entry of an open sheet: the sheet opens again, as it was.
  if (sheetInHistory()) {
    sheet.showModal();
    byID("cart-done").focus();
  }
  // A click on the backdrop (the dialog itself, outside its content) closes the sheet.
  sheet.addEventListener("click", (event) => {
    if (event.target === sheet) sheet.close();
  });
  // A control reached with the keyboard is scrolled clear of the sticky foot, however tall
  // its problems and notes make it.
  new ResizeObserver(([entry]) => sheet.style.setProperty("--foot-height", `${entry.borderBoxSize[0].blockSize}px`))
    .observe(byID("cart-foot"));
  byID("checkout").addEventListener("click", checkout);
  byID("share-cart").addEventListener("click", shareCart);

  const confirm = byID("confirm-clear");
  byID("clear-cart").addEventListener("click", () => {
    say(byID("confirm-refusal"), "");
    confirm.showModal();
    byID("confirm-cancel").focus();
  });
  byID("confirm-cancel").addEventListener("click", () => confirm.close());
  byID("confirm-yes").addEventListener("click", clearCart);
  confirm.addEventListener("close", () => {
    const clear = byID("clear-cart");
    (sheet.open ? (clear.getClientRects().length > 0 ? clear : byID("cart-done")) : byID("cart-open")).focus();
  });
  byID("older-orders").addEventListener("click", showOlderOrders);
}

/** Shows the link to this cart, selected, and copies it where the browser lets the page: with
 * it, anyone opens this cart, and sees and changes it and its orders. */
async function shareCart() {
  const url = new URL("/", location.href);
  url.searchParams.set("cart", state.cartID);
  const field = byID("share-link");
  field.value = url.href;
  byID("share-panel").hidden = false;
  byID("share-cart").setAttribute("aria-expanded", "true");
  const warning = "Whoever has this link can see and change this cart and its orders.";
  let copied = false;
  try {
    await navigator.clipboard.writeText(url.href);
    copied = true;
  } catch {
    // No clipboard here (a page not served over HTTPS or from this machine, or access refused):
    // the link is selected for the shopper to copy.
  }
  byID("share-words").textContent = copied ? `Link copied. ${warning}` : `Copy this link. ${warning}`;
  field.focus();
  field.select();
}

/** The next page of older orders; focus moves to the first of them, as the button may go. */
async function showOlderOrders() {
  const shown = state.orders.length;
  await loadOrders({ older: true });
  const first = byID("order-list").children[shown];
  if (first) first.querySelector("summary").focus();
}

async function start() {
  wire();
  // The catalog is read while the cart is chosen, so it is there behind a question about a
  // shared link; the cart's controls join it once the cart is known.
  const firstProducts = refreshProducts();
  const chosen = await untilAnswered(chooseCart);
  useCart(chosen.cart, chosen.notice);
  offerOwnCart();
  // The cart follows its changes while the catalog's first read may still be under way.
  firstProducts.then(() => {
    // Read again when the first read found nothing: the shop may not have been reachable then.
    if (state.products.length === 0) refreshProducts();
  });
  loadOrders();
  // A browser allows a site only six connections, so a page out of view (a tab in the
  // background, a page in the back/forward cache) closes its stream, and opens it again, with
  // whatever changed meanwhile, when it is shown: a seventh tab still loads.
  if (document.visibilityState !== "hidden") unfollow = follow();
  window.addEventListener("pagehide", pause);
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) resume();
  });
  // A product change that touches no line of this cart sends no event: it is read when the
  // shopper comes back to the page, and now and then while the page is in view.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      resume();
      refreshProducts();
    } else {
      pause();
    }
  });
  window.addEventListener("focus", () => refreshProducts());
  setInterval(() => {
    if (document.visibilityState === "visible") refreshProducts();
  }, productRefreshMs);
}

/** Makes `cart` the page's cart and shows it, with `notice` saying why it is the one shown. */
function useCart(cart, notice) {
  state.cartID = cart.cart;
  document.body.dataset.cart = state.cartID;
  pageError("");
  showCart(cart);
  notify(notice);
}

/** Stops following the cart's event stream, the function `follow()` answered, while it is
 * followed. */
let unfollow = null;

/** Stops following the cart's changes, while they are followed. */
function pause() {
  if (unfollow) unfollow();
  unfollow = null;
}

/** Follows the page's cart again, from the cart as it is now, unless it is followed. */
function resume() {
  if (unfollow) return;
  state.takeAnyVersion = true;
  unfollow = follow();
  loadOrders();
}

/** The new cart on its way in place of one the server no longer recognises, while one is. */
let startingOver = null;

/** Reads the page's cart, and starts a new one when the server no longer recognises it; any
 * other failure leaves the cart as it is, for the stream, which keeps trying, to bring. */
async function checkCart() {
  const id = state.cartID;
  try {
    await send("GET", cartPath(id));
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    if (notRecognised(error) && id === state.cartID) await startOver();
  }
}

/**
 * Starts a new cart in place of the page's, which the server no longer recognises (its cart
 * key changed: another store, or one without the old secret), says so, and follows the new
 * one, as the page does when it loads with such a cart. Answers once it is shown.
 */
function startOver() {
  startingOver ??= (async () => {
    // The stream of a cart the server does not know is answered 401 however often it is opened.
    pause();
    const minted = await untilAnswered(() => send("POST", "/v1/carts"));
    remember(minted.cart);
    byID("shared-bar").hidden = true;
    // Shown again meanwhile, the page may have followed the old cart again.
    pause();
    // Nothing of the old cart stays: its lines, orders, refusals and checkout. A cart just
    // minted has no orders.
    Object.assign(state, {
      cart: null, takeAnyVersion: true, streamVersion: null, checkout: null, unsureCheckout: null,
      orders: [], olderAfter: null, ordersRead: false, typedRefusal: null,
    });
    clearRefusals();
    say(byID("order-confirmation"), "");
    say(byID("orders-refusal"), "");
    renderOrders([], false);
    useCart(minted, lostCartNotice);
    if (document.visibilityState !== "hidden") resume();
  })().finally(() => {
    startingOver = null;
  });
  return startingOver;
}

/** What the shopper is told while the server fails to read their cart, or to start one. */
const cannotOpenNow = "The shop cannot open your cart right now. It keeps trying, and shows your cart once it can.";

/** What `work()` resolves to, asked again, waiting longer each time up to ten seconds, while
 * it is refused; the banner says why meanwhile. A store that fails to read the cart may be
 * repaired, or come back, so the page waits for it rather than give the cart up. */
async function untilAnswered(work) {
  for (let delay = 1000; ; delay = Math.min(delay * 2, 10000)) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      pageError(error.retryable ? error.message : cannotOpenNow);
      // The cart sheet, which may have been open when the page was left, hides the banner.
      if (!state.cart) byID("cart-pending").textContent = cannotOpenNow;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** While the cart shown came from a link, offers the way back to the shopper's own cart, or,
 * when they had none, to a new one of their own. The shared cart stays as it is. */
function offerOwnCart() {
  if (!openedFromLink(state.cartID)) return;
  const own = recall(ownKey);
  const button = byID("own-cart");
  button.textContent = own ? "Back to My Cart" : "Start My Own Cart";
  byID("shared-bar").hidden = false;
  button.addEventListener("click", () => {
    // The page starts again on that cart (or, with none, on one the server mints).
    remember(own);
    location.reload();
  });
}

/** Watches the cart's event stream; answers a function that stops watching. */
function follow() {
  return watch(cartPath(state.cartID, "/events"), {
    onCart: (cart) => {
      showCart(cart, { fromStream: true });
      // A change to the cart may be a product's (its price, name or stock): the list follows.
      refreshProducts();
    },
    onState: (status) => {
      state.streamOpen = status === "open";
      connection(status);
    },
    // The requests on their way to a silent shop would wait for ever: they end as refused.
    onSilent: abandonWaiting,
    // Refused for good: the server may no longer recognise the cart.
    onClosed: checkCart,
    onBroken: () => pageError("The shop sent an update this page cannot read; reload the page."),
  });
}

start();
