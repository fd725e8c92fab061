// Drawing the shop from the server's JSON. Rows and lines are kept per SKU and updated in
// place, so a button keeps keyboard focus across updates; where a focused control is hidden
// (Add turning into − / quantity / +), focus moves to the control that takes its place.
// Text goes in with textContent only: the page's policy lets no string become markup.

import { money } from "./api.js";

const byID = (id) => document.getElementById(id);

/** A copy of the template `id`'s first element. */
function instance(id) {
  return byID(id).content.firstElementChild.cloneNode(true);
}

/** The element inside `root` with the test hook `name`. */
export function hook(root, name) {
  return root.querySelector(`[data-testid="${name}"]`);
}

/** `count` and the noun, singular or plural, kept on one line. */
export function items(count) {
  return count === 1 ? "1\u00a0item" : `${count}\u00a0items`;
}

/** Shows `message` in `element`, or hides it when `message` is empty. */
export function say(element, message) {
  element.textContent = message || "";
  // A status region (`live`) stays in the page, empty and of no size, since screen readers
  // announce only changes to a region they already knew.
  element.hidden = !message && !element.classList.contains("live");
}

/** Marks `button` as waiting for the server (or not), with `label` as its text meanwhile. */
export function setBusy(button, busy, label) {
  if (busy) {
    button.setAttribute("aria-busy", "true");
    if (label) {
      button.dataset.idleText = button.textContent;
      button.textContent = label;
    }
  } else {
    button.removeAttribute("aria-busy");
    if (button.dataset.idleText !== undefined) {
      button.textContent = button.dataset.idleText;
      delete button.dataset.idleText;
    }
  }
}

/** Whether `button` is waiting for the server. */
export function isBusy(button) {
  return button.getAttribute("aria-busy") === "true";
}

/**
 * `text` from the server in the shopper's words: it names products by SKU and the cart by its
 * ID, which mean nothing on this page, so they become the product's name (from `names`, SKU
 * to name) and "your cart".
 */
export function shopperWords(text, cartID, names) {
  let words = text;
  if (cartID) words = words.replaceAll(`Cart '${cartID}'`, "Your cart").replaceAll(`cart '${cartID}'`, "your cart");
  // A SKU may hold a quote itself (`kid's-tee`), so a quote does not end a SKU by itself: each
  // opening quote pairs with the farthest later one that encloses a SKU the page knows.
  let named = "";
  let from = 0;
  for (let open = words.indexOf("'"); open >= 0; open = words.indexOf("'", from)) {
    let close = -1;
    for (let at = words.indexOf("'", open + 1); at >= 0; at = words.indexOf("'", at + 1)) {
      if (names.has(words.slice(open + 1, at))) close = at;
    }
    if (close < 0) {
      named += words.slice(from, open + 1);
      from = open + 1;
    } else {
      named += words.slice(from, open) + names.get(words.slice(open + 1, close));
      from = close + 1;
    }
  }
  return named + words.slice(from);
}

/** A cart problem in the shopper's words. A line or a product name the store holds damaged
 * is told as the shopper can mend it, by removing the line, rather than as the server tells
 * an operator (set the quantity or delete the line, rename the product). */
function problemWords(problem, cartID, names) {
  // The name the store holds is the one no product can have: it is not repeated.
  if (problem.code === "damaged_product") return "This product cannot be ordered until the shop fixes its name. Remove it to check out.";
  if (problem.code === "damaged_line" && Number.isInteger(problem.quantity)) {
    const name = names.get(problem.sku) || `'${problem.sku}'`;
    return `${name}: your cart holds ${problem.quantity} of it, which no line can hold. Remove it to check out.`;
  }
  return shopperWords(problem.message, cartID, names);
}

/** Each product's name by SKU, from `products` and the lines of `cart`, and for a product
 * neither lists now (gone from the catalog, its line with it), the name the page last showed. */
export function productNames(products, cart) {
  const names = new Map(products.map((product) => [product.sku, shownName(product)]));
  for (const line of cart ? cart.items : []) names.set(line.sku, shownName(line));
  for (const [sku, name] of names) namesShown.set(sku, name);
  for (const [sku, name] of namesShown) if (!names.has(sku)) names.set(sku, name);
  return names;
}

/** The name a product row or cart line shows: its SKU when the name another client stored
 * is blank, so that the row and its buttons are still named. */
function shownName({ name, sku }) {
  return name.trim() === "" ? sku : name;
}

/** The name of each product the page has shown, by SKU. */
const namesShown = new Map();

/** How many units of each SKU `cart` holds. */
function quantities(cart) {
  return new Map((cart ? cart.items : []).map((line) => [line.sku, line.quantity]));
}

/**
 * Keeps `list`'s children, one per key, in `keys`'s order; makes missing ones with `make`.
 * When the children change, a control whose child stays keeps the focus; if the child that
 * held the focus went, the function answered, called once the children are drawn, moves the
 * focus to the same control of the child now in its place, or the nearest one after it (then
 * before it) with a control that can take it, so a keyboard user keeps their place, and to
 * `fallback()` when no child can. With `landOn`, the focus goes to that control of the
 * nearest child instead: where the control that went was destructive (− at one unit, ×), the
 * next press must not take another child with it. `keyOf` reads a child's key.
 */
function keyed(list, keys, make, fallback, { keyOf = (child) => child.dataset.sku, landOn = null } = {}) {
  const existing = new Map(Array.from(list.children, (child) => [keyOf(child), child]));
  const wanted = keys.map((key) => existing.get(key) || make(key));
  const same = wanted.length === list.children.length && wanted.every((child, index) => list.children[index] === child);
  if (same) return;
  const focused = document.activeElement;
  const index = Array.from(list.children).findIndex((child) => !wanted.includes(child) && child.contains(focused));
  const control = index >= 0 ? landOn || focused.dataset.testid : null;
  list.replaceChildren(...wanted);
  // Moving a child takes the focus from the control in it: one whose child stays gets it back.
  if (index < 0 && list.contains(focused) && document.activeElement !== focused) focused.focus({ preventScroll: true });
  return () => {
    if (index < 0) return;
    const children = Array.from(list.children);
    const nearest = children.slice(index).concat(children.slice(0, index).reverse());
    // Never a − or a delete the focus was not on: the next press would take a unit or a line
    // the shopper did not aim at.
    const destructive = (element) => ["decrement", "line-delete"].includes(element.dataset.testid);
    const controls = (child) => [hook(child, control), ...child.querySelectorAll("input, button, summary")]
      .filter((element) => element && !(destructive(element) && element.dataset.testid !== focused.dataset.testid));
    const target = nearest.map((child) => controls(child).find(usable)).find(Boolean);
    (target || fallback()).focus();
  };
}

/** Whether `button` can take the focus: there, enabled and shown. */
function usable(button) {
  return Boolean(button) && !button.disabled && button.getClientRects().length > 0;
}

/** The nearest usable Add in the rows after `row`, else before it, else the nearest usable +,
 * else the cart button: where the focus goes when `row` has no control left. Never a −, whose
 * next press could take a line out. */
function nearbyControl(row) {
  const rows = Array.from(row.parentElement.children);
  const index = rows.indexOf(row);
  const nearest = rows.slice(index + 1).concat(rows.slice(0, index).reverse());
  const first = (control) => nearest.map((other) => hook(other, control)).find((button) => usable(button) && isOffered(button));
  return first("add") || first("increment") || byID("cart-open");
}

/** Compares names as `localeCompare` does, faster over a long list. */
const collator = new Intl.Collator();

/** How many product rows and cart lines have been made: it numbers their notes' IDs. */
let stockNotes = 0;

/** The most products listed without a search field. */
const searchFrom = 20;

/** The last product list drawn and its SKUs in name order, sorted again only for a new list. */
let nameOrder = { products: null, skus: [] };

/** How long the search field's typing pauses before the count of the rows that match is said:
 * a screen reader would otherwise announce a count for every key. */
const typingPauseMs = 600;
let productsStatusTimer;

/** Writes the status above the product list: only when it changes, so that a cart change
 * does not announce the count again; with `typing`, once the typing pauses. */
function sayProductsStatus(status, typing) {
  clearTimeout(productsStatusTimer);
  const write = () => {
    const statusNote = byID("products-status");
    if (statusNote.textContent !== status) say(statusNote, status);
  };
  if (typing) productsStatusTimer = setTimeout(write, typingPauseMs);
  else write();
}

/** The product list in name order, with each row's controls for what `cart` holds; no +
 * once a line holds `maxLineQuantity`, the store's per-line cap, and no Add for a new line
 * once the cart holds `maxLines`, its cap on lines, which a note above the list says. Above
 * the list, `note` (the catalog is loading, or could not be read), or else that none is for
 * sale when the list is empty, or that none matches the search field's text. With `typing`
 * (the search field's text changed) the count is said once the typing pauses. */
export function renderProducts(products, cart, maxLineQuantity = Infinity, maxLines = Infinity, note = "",
  { typing = false } = {}) {
  const list = byID("products");
  const focused = document.activeElement;
  const focusedRow = list.contains(focused) ? focused.closest("[data-sku]") : null;
  const held = quantities(cart);
  // A product whose line the cart cannot list for its quantity: adding to it is refused.
  const damaged = new Set((cart && cart.problems || []).filter((problem) => problem.code === "damaged_line")
    .map((problem) => problem.sku));
  const linesFull = held.size >= maxLines;
  // A cap lowered since the lines went in leaves the cart above it, which checkout refuses.
  const lines = (count) => (count === 1 ? "1 line" : `${count} lines`);
  say(byID("lines-full"), held.size > maxLines
    ? `Your cart holds ${lines(held.size)}, more than the ${maxLines} a cart may hold: take ${held.size - maxLines} out to check out.`
    : linesFull ? `Your cart holds ${lines(maxLines)}, the most it can: take one out to add another product.` : "");
  const bySKU = new Map(products.map((product) => [product.sku, product]));
  if (nameOrder.products !== products) {
    const sorted = products.slice().sort((a, b) => collator.compare(a.name, b.name) || (a.sku < b.sku ? -1 : 1));
    nameOrder = { products, skus: sorted.map((product) => product.sku) };
  }
  const refocus = keyed(list, nameOrder.skus, (sku) => {
    const row = instance("product-template");
    row.dataset.sku = sku;
    // The note that says why + is off describes it.
    row.querySelector(".stock").id = `stock-note-${++stockNotes}`;
    return row;
  }, () => byID("cart-open"));
  for (const row of list.children) {
    const product = bySKU.get(row.dataset.sku);
    const quantity = held.get(row.dataset.sku) || 0;
    // Only a row whose product, units or caps changed is drawn again: a cart change redraws
    // its own rows, not every row of a long catalog.
    const unusable = damaged.has(row.dataset.sku);
    const drawn = JSON.stringify([product, quantity, maxLineQuantity, linesFull, unusable]);
    if (row.dataset.drawn === drawn) continue;
    row.dataset.drawn = drawn;
    renderProductRow(row, product, quantity, maxLineQuantity, linesFull, unusable);
  }
  if (refocus) refocus();
  // A catalog longer than a couple of screens gets a search field: the rows whose name or
  // SKU does not hold what it says are hidden.
  const search = byID("product-search");
  search.hidden = products.length <= searchFrom && search.value === "";
  const wanted = search.hidden ? "" : search.value.trim().toLocaleLowerCase();
  let matching = 0;
  for (const row of list.children) {
    const product = bySKU.get(row.dataset.sku);
    row.hidden = wanted !== ""
      && !product.name.toLocaleLowerCase().includes(wanted) && !product.sku.toLocaleLowerCase().includes(wanted);
    if (!row.hidden) matching += 1;
    // A row that no longer matches takes the focus with it: it goes back to the search.
    if (row.hidden && row.contains(document.activeElement)) search.focus();
  }
  const text = search.value.trim();
  const status = note || (products.length === 0 ? "No products are for sale yet."
    : wanted === "" ? ""
    : matching === 0 ? `No product matches “${text}”.`
    : `${matching === 1 ? "1 product matches" : `${matching} products match`} “${text}”.`);
  sayProductsStatus(status, typing);
  // The control that had the focus went off, judged once every row is drawn (rows after it
  // may have gone off too): an Add off because the cart holds the most lines gives the focus
  // to the note that says so; any other, to a control nearby.
  const current = document.activeElement;
  if (focusedRow && focusedRow.isConnected && (current === document.body || (current === focused && !usable(focused)))) {
    const full = byID("lines-full");
    (linesFull && focused === hook(focusedRow, "add") ? full : nearbyControl(focusedRow)).focus();
  }
}

function renderProductRow(row, product, quantity, maxLineQuantity, linesFull, damaged) {
  const name = shownName(product);
  const add = hook(row, "add");
  const stepper = row.querySelector(".stepper");
  const focused = document.activeElement;
  const addHadFocus = focused === add;
  const stepperHadFocus = stepper.contains(focused);

  row.querySelector(".product-name").textContent = name;
  row.querySelector(".price").textContent = money(product.price, product.currency);
  const soldOut = product.stock === 0;
  const stockNote = row.querySelector(".stock");
  stockNote.textContent = damaged ? "Its line in your cart cannot be read: remove it there first."
    : limitWords(product.stock, quantity, maxLineQuantity);
  stockNote.hidden = stockNote.textContent === "";
  row.classList.toggle("sold-out", soldOut);
  // What the server would refuse is not offered: no Add when none is left or the cart's line
  // of it cannot be read, no + when the line holds all there is or as many as a line may.
  add.disabled = soldOut || linesFull || damaged;
  const full = isFull(quantity, product.stock, maxLineQuantity);
  renderStepper(row, name, quantity, full);
  // + off says why, in the words the row shows.
  if (full) hook(row, "increment").setAttribute("aria-describedby", stockNote.id);
  else hook(row, "increment").removeAttribute("aria-describedby");
  add.setAttribute("aria-label", `Add ${name} to the cart`);
  // The group's name carries the count, as the cart sheet's lines do, so a screen reader
  // tells how many units a press of + or − leaves.
  stepper.setAttribute("aria-label", `${name} in the cart: ${items(quantity)}`);
  add.hidden = quantity > 0;
  stepper.hidden = quantity === 0;

  // + takes the focus also when it is off (the last unit in stock is in the cart): another
  // press then adds nothing, and takes nothing out.
  if (addHadFocus && add.hidden) hook(row, "increment").focus();
  if (stepperHadFocus && stepper.hidden && !add.disabled) add.focus();
}

/** At most this many left is worth telling the shopper before + goes off. */
const lowStock = 5;

/** What a product row says of what limits its units: tracked stock (`null` when untracked)
 * and the store's per-line cap, given the units the cart holds; nothing when there is plenty,
 * so that + never goes off without a word. */
function limitWords(stock, quantity, maxLineQuantity) {
  const tracked = stock !== null;
  // A line above the stock or a cap lowered since says how many units must come out.
  if (tracked && stock === 0) return quantity > 0 ? `Out of stock: take ${quantity} out` : "Out of stock";
  if (tracked && quantity > stock) return `Only ${stock} in stock: take ${quantity - stock} out`;
  if (tracked && quantity === stock) return stock === 1 ? "The last one is in your cart" : `All ${stock} in stock are in your cart`;
  if (quantity > maxLineQuantity) return `${maxLineQuantity} of one product is the most a cart can hold: take ${quantity - maxLineQuantity} out`;
  if (quantity === maxLineQuantity) return `${maxLineQuantity} of one product is the most a cart can hold`;
  return tracked && stock <= lowStock ? `Only ${stock} left` : "";
}

/** The unit price each line had when this page first showed it, by SKU: a line whose price
 * changed since says what it was, until it leaves the cart. */
const firstPrices = new Map();

/** The price the product list showed for each SKU with an add on its way: a line the add
 * makes starts from it, whether the add's answer or an event draws the line first, so a line
 * made at another price says what the shopper saw. */
const addingAt = new Map();

/** Runs `add`, a unit of `sku` being added from a row that shows `unitPrice`, and answers
 * its cart. */
export async function addingFromList(sku, unitPrice, add) {
  addingAt.set(sku, unitPrice);
  try {
    const cart = await add();
    // The answer is drawn after this returns, when the add is no longer on its way.
    if (!firstPrices.has(sku)) firstPrices.set(sku, unitPrice);
    return cart;
  } finally {
    addingAt.delete(sku);
  }
}

/**
 * The badge, the cart sheet's lines, total and buttons, and its problems; `products` give
 * the stock and `maxLineQuantity` the per-line cap, which stop a line's +, and the products
 * the names that problems are told in.
 */
export function renderCart(cart, products, maxLineQuantity = Infinity) {
  const count = cart.totalItems;
  const badge = byID("cart-open").querySelector(".badge");
  // Three digits would cover the icon; the words for screen readers keep the count.
  badge.textContent = count > 99 ? "99+" : String(count);
  badge.hidden = count === 0;
  byID("badge-words").textContent = count === 0 ? "no items" : items(count);
  byID("cart-title").textContent = `Cart (${count})`;

  const empty = cart.items.length === 0;
  byID("cart-pending").hidden = true;
  byID("cart-empty").hidden = !empty;
  // An empty cart is not offered for sharing; a link shown for it goes with its items.
  const share = byID("share-cart");
  // Share and the foot's buttons go with the lines: the focus on one of them goes to Done,
  // and a question whether to clear the cart has no cart left to clear.
  const asking = byID("confirm-clear");
  if (empty && asking.open) asking.close();
  if (empty && (document.activeElement === share || byID("cart-foot").contains(document.activeElement))) {
    byID("cart-done").focus();
  }
  share.hidden = empty;
  if (empty) hideShareLink();
  byID("cart-foot").hidden = empty;
  const total = money(cart.subtotal, cart.currency);
  byID("cart-total").textContent = total;
  const names = productNames(products, cart);
  const problems = (cart.problems || []).map((problem) => ({ ...problem, message: problemWords(problem, cart.cart, names) }));
  // While the sheet is open it is the only part of the page a screen reader reaches, so the
  // count and total are told from inside it, and the problems that stop Checkout; while it is
  // closed the region is not shown, so keeping it up to date announces nothing.
  const toFix = problems.length === 0 ? "" : `; ${problems.length === 1 ? "1 problem" : `${problems.length} problems`} to fix before checkout`;
  const status = byID("cart-status");
  const words = `Cart: ${count === 0 ? "no items" : items(count)}, total ${total}${toFix}`;
  if (status.textContent !== words) status.textContent = words;

  const list = byID("cart-lines");
  const refocus = keyed(list, cart.items.map((line) => line.sku), (sku) => {
    const element = instance("line-template");
    element.dataset.sku = sku;
    // The note or the problems that say why + is off describe it.
    element.querySelector(".stock").id = `stock-note-${++stockNotes}`;
    element.querySelector(".problems").id = `line-problems-${stockNotes}`;
    return element;
  }, () => byID("cart-done"), { landOn: "quantity" });
  const bySKU = new Map(cart.items.map((line) => [line.sku, line]));
  for (const sku of firstPrices.keys()) if (!bySKU.has(sku)) firstPrices.delete(sku);
  const stock = new Map(products.map((product) => [product.sku, product.stock]));
  for (const element of list.children) {
    const line = bySKU.get(element.dataset.sku);
    renderLine(element, line, stock.get(line.sku), problems.filter((problem) => problem.sku === line.sku), maxLineQuantity);
  }
  // A problem of the whole cart (`sku` null, such as too many lines), or of a line the cart
  // does not list (a product gone from the catalog, a quantity the store holds out of range),
  // is shown above Checkout; such a line has no row of its own, so its problem offers Remove.
  renderProblems(byID("cart-problems"), problems.filter((problem) => !bySKU.has(problem.sku)), names);
  // Every problem stops checkout, so the button says so, and a note why, rather than sending
  // what the server would refuse; it stays focusable, so focus is not lost when it turns off.
  const blocked = problems.length > 0;
  const checkout = byID("checkout");
  checkout.setAttribute("aria-disabled", String(blocked));
  if (blocked) checkout.setAttribute("aria-describedby", "checkout-blocked");
  else checkout.removeAttribute("aria-describedby");
  byID("checkout-blocked").hidden = !blocked;
  if (refocus) refocus();
}

/** One line of the cart sheet; `stock` is the product's (null when untracked, undefined
 * when the product is not listed). */
function renderLine(element, line, stock, problems, maxLineQuantity) {
  const name = shownName(line);
  element.querySelector(".line-name").textContent = name;
  if (!firstPrices.has(line.sku)) firstPrices.set(line.sku, addingAt.get(line.sku) ?? line.unitPrice);
  const first = firstPrices.get(line.sku);
  const repriced = first !== line.unitPrice;
  element.querySelector(".unit-price").textContent =
    `${money(line.unitPrice, line.currency)} each` + (repriced ? ` (was ${money(first, line.currency)})` : "");
  element.classList.toggle("repriced", repriced);
  element.querySelector(".line-total").textContent = money(line.lineTotal, line.currency);
  element.querySelector(".stepper").setAttribute("aria-label", `${name}: ${items(line.quantity)}`);
  // As in the product list, + is not offered when the line is full, nor for a product no
  // longer for sale.
  const unsellable = problems.some((problem) => problem.code === "inactive_product" || problem.code === "unknown_product");
  const noMore = unsellable || isFull(line.quantity, stock, maxLineQuantity);
  renderStepper(element, name, line.quantity, noMore);
  // A line with no problem says what limits it, as its product row does; a problem says it
  // in its own words. Either describes + when it is off.
  const note = element.querySelector(".stock");
  note.textContent = problems.length > 0 ? "" : limitWords(typeof stock === "number" ? stock : null, line.quantity, maxLineQuantity);
  note.hidden = note.textContent === "";
  const why = problems.length > 0 ? element.querySelector(".problems") : note.hidden ? null : note;
  if (noMore && why) hook(element, "increment").setAttribute("aria-describedby", why.id);
  else hook(element, "increment").removeAttribute("aria-describedby");
  hook(element, "line-delete").setAttribute("aria-label", `Delete ${name} from the cart`);

  renderProblems(element.querySelector(".problems"), problems);
  element.classList.toggle("has-problem", problems.length > 0);
}

/** Hides the link that Share showed. */
export function hideShareLink() {
  byID("share-panel").hidden = true;
  byID("share-cart").setAttribute("aria-expanded", "false");
}

/** Whether a line of `quantity` units holds all the `stock` there is (null when untracked,
 * undefined when unknown) or as many as a line may. */
function isFull(quantity, stock, maxLineQuantity) {
  return quantity >= maxLineQuantity || (typeof stock === "number" && quantity >= stock);
}

/** The − / quantity / + of a product row or cart line for `quantity` units of `name`; + off
 * when `noMore`. */
function renderStepper(root, name, quantity, noMore) {
  const shown = hook(root, "quantity");
  if (shown instanceof HTMLInputElement) {
    // A cart line's quantity can be typed: what the shopper is typing is not overwritten.
    if (shown.dataset.edited !== "true") shown.value = String(quantity);
    shown.setAttribute("aria-label", `Quantity of ${name}`);
  } else {
    shown.textContent = String(quantity);
  }
  hook(root, "decrement").setAttribute("aria-label", quantity === 1 ? `Remove ${name} from the cart` : `One ${name} less`);
  hook(root, "increment").setAttribute("aria-label", `One more ${name}`);
  // + stays focusable when it goes off: a key pressed again at the stock or the cap then does
  // nothing, where the focus moved on to − would take a unit out.
  hook(root, "increment").setAttribute("aria-disabled", String(noMore));
}

/** Whether `button` is offered: neither disabled nor marked `aria-disabled`, which keeps a
 * button focusable but not to be acted on. */
export function isOffered(button) {
  return !button.disabled && button.getAttribute("aria-disabled") !== "true";
}

/** Shows `problems` as the items of `list`, hidden when there are none. Items already
 * saying the same stay, so a re-render of an unchanged cart does not announce them again.
 * With `names` (the list above Checkout), a problem of a line the cart does not list comes
 * with a Remove button and a place for its refusal; the focus on a Remove whose problem goes
 * moves to the next problem's Remove, or to Done. */
function renderProblems(list, problems, names = null) {
  const removable = (problem) => names !== null && problem.sku != null;
  const shown = Array.from(list.children);
  const unchanged = shown.length === problems.length && problems.every(
    (problem, index) => shown[index].dataset.code === problem.code
      && shown[index].dataset.sku === (removable(problem) ? problem.sku : undefined)
      && shown[index].querySelector(".problem-text").textContent === problem.message);
  if (!unchanged) {
    const focused = shown.findIndex((item) => item.contains(document.activeElement));
    list.replaceChildren(...problems.map((problem) => problemItem(problem, removable(problem) ? names : null)));
    if (focused >= 0 && !list.contains(document.activeElement)) {
      const buttons = Array.from(list.children, (item) => item.querySelector("button"));
      const next = buttons.slice(focused).find(Boolean) || buttons.filter(Boolean).at(-1);
      (next || byID("cart-done")).focus();
    }
  }
  list.hidden = problems.length === 0;
}

/** One problem's item, with Remove when `names` are given; see `renderProblems`. */
function problemItem(problem, names) {
  const item = document.createElement("li");
  item.dataset.testid = "problem";
  item.dataset.code = problem.code;
  const text = document.createElement("span");
  text.className = "problem-text";
  text.textContent = problem.message;
  item.append(text);
  if (names) {
    // The line's own controls work on it by SKU, as a cart line's do.
    item.dataset.sku = problem.sku;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "danger";
    remove.dataset.testid = "line-delete";
    remove.textContent = "Remove";
    remove.setAttribute("aria-label", `Remove ${names.get(problem.sku) || problem.sku} from the cart`);
    const refusal = document.createElement("p");
    refusal.className = "refusal";
    refusal.dataset.testid = "refusal";
    refusal.setAttribute("role", "alert");
    refusal.hidden = true;
    item.append(remove, refusal);
  }
  return item;
}

/** The order history, newest first, and whether older orders remain. */
export function renderOrders(orders, hasOlder) {
  const list = byID("order-list");
  // An order never changes, so one already shown stays, open or closed, with its focus.
  const byNumber = new Map(orders.map((order) => [String(order.number), order]));
  const refocus = keyed(list, Array.from(byNumber.keys()), (number) => orderItem(byNumber.get(number)),
    () => byID("cart-open"), { keyOf: (child) => child.dataset.number });
  if (refocus) refocus();
  const status = byID("orders-status");
  status.hidden = orders.length > 0;
  status.textContent = orders.length > 0 ? "" : "No orders yet.";
  byID("older-orders").hidden = !hasOlder;
}

function orderItem(order) {
  const item = instance("order-template");
  item.dataset.number = String(order.number);
  item.querySelector(".order-number").textContent = `Order #${order.number}`;
  const placed = new Date(order.placedAt);
  const when = Number.isNaN(placed.getTime())
    ? order.placedAt
    : placed.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  item.querySelector(".order-meta").textContent = `${when} · ${items(order.totalItems)}`;
  item.querySelector(".order-total").textContent = money(order.total, order.currency);
  item.querySelector(".order-lines").replaceChildren(
    ...order.lines.map((line) => {
      const entry = document.createElement("li");
      const what = document.createElement("span");
      what.className = "order-line-name";
      what.textContent = `${line.quantity} × ${line.name}`;
      const total = document.createElement("span");
      total.className = "order-line-total";
      total.textContent = money(line.lineTotal, line.currency);
      entry.append(what, total);
      return entry;
    }),
  );
  return item;
}
