"""The shop in a real browser: headless Chromium against the server and the CLI on one store.

Every test works on a cart of its own and waits for conditions, never for fixed times.
"""

import signal
import time
from contextlib import contextmanager

from selenium.common.exceptions import NoSuchElementException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import new_browser, wait_until


def hooked(name, sku=None):
    return f'[data-testid="{name}"]' + (f'[data-sku="{sku}"]' if sku else "")


def shown(amount, currency):
    """An amount of the server's as the page shows it to an en-US shopper: "$1.29"."""
    return {"USD": "$", "EUR": "€", "GBP": "£"}[currency] + amount


@contextmanager
def held(server, settle=0.5):
    """The server stopped (SIGSTOP) while the block runs, so that what the page sends waits,
    and for `settle` seconds more, for the page to send all of it; then it goes on."""
    server.process.send_signal(signal.SIGSTOP)
    try:
        yield
        time.sleep(settle)
    finally:
        server.process.send_signal(signal.SIGCONT)


class Shop:
    """One browser window on the shop, read and driven through the data-testid hooks."""

    def __init__(self, driver, server):
        self.driver = driver
        self.server = server

    def open(self, cart_id=None):
        """Loads the page (on `cart_id` when given) and waits for its cart and products."""
        self.driver.get(self.server.url + ("/?cart=" + cart_id if cart_id else "/"))
        wait_until(lambda: self.cart_id and self.driver.find_elements(By.CSS_SELECTOR, hooked("product-row")),
                   message="the page to load its cart and products")
        return self

    @property
    def cart_id(self):
        return self.driver.execute_script("return document.body.dataset.cart || ''")

    def find(self, selector, root=None):
        return (root or self.driver).find_element(By.CSS_SELECTOR, selector)

    def row(self, sku):
        return self.find(hooked("product-row", sku))

    def line(self, sku):
        return self.find(hooked("cart-line", sku))

    def press(self, name, sku=None, within="product-row"):
        """Clicks the control `name`, in the row or line of `sku` when given."""
        root = self.find(hooked(within, sku)) if sku else None
        self.find(hooked(name), root).click()

    def quantity(self, sku):
        """The quantity the product row shows, 0 when it shows Add."""
        row = self.row(sku)
        if self.find(hooked("add"), row).is_displayed():
            return 0
        return int(self.find(hooked("quantity"), row).text)

    def badge(self):
        """The badge's number ("99+" above 99), or 0 when it is hidden."""
        badge = self.find(hooked("cart-badge"))
        if not badge.is_displayed():
            return 0
        return badge.text if badge.text == "99+" else int(badge.text)

    def lines(self):
        """The cart sheet's lines: {sku: quantity}."""
        return {line.get_attribute("data-sku"): int(self.find(hooked("quantity"), line).get_attribute("value"))
                for line in self.driver.find_elements(By.CSS_SELECTOR, hooked("cart-line"))}

    def total(self):
        return self.find(hooked("cart-total")).get_attribute("textContent")

    def refusal(self, sku):
        element = self.find(hooked("refusal"), self.row(sku))
        return element.text if element.is_displayed() else ""

    def settled(self):
        """Waits for the reads of the product list and the settings that open the page and
        follow its stream's first event, so that a change made after is one the page has not
        read."""
        wait_until(lambda: self.driver.execute_script(
            "return performance.getEntriesByType('resource')"
            ".filter((entry) => new URL(entry.name).pathname === '/v1/settings').length") >= 2,
            message="the page's second read of the settings")
        return self

    def product_reads(self):
        """How many times the page has requested /v1/products."""
        return self.driver.execute_script(
            "return performance.getEntriesByType('resource')"
            ".filter((entry) => new URL(entry.name).pathname === '/v1/products').length")

    def open_cart(self):
        self.press("cart-open")
        wait_until(lambda: self.find("#cart").is_displayed(), message="the cart sheet to open")

    def close_cart(self):
        self.find("#cart-done").click()
        wait_until(lambda: not self.find("#cart").is_displayed(), message="the cart sheet to close")

    def wait_for(self, condition, message, timeout=15):
        return wait_until(condition, timeout=timeout, message=message)

    def shows_server_cart(self):
        """Whether the badge, the title and the total are the server's cart, as it formats them."""
        cart = self.server.cart(self.cart_id)
        count = cart["totalItems"]
        return (self.badge() == (count if count <= 99 else "99+")
                and self.find("#cart-title").get_attribute("textContent") == f"Cart ({cart['totalItems']})"
                and self.total() == shown(cart["subtotal"], cart["currency"]))

    def in_step(self, message):
        self.wait_for(self.shows_server_cart, f"badge, title and total to match the server: {message}")


def offered(button):
    """Whether `button` is offered: enabled and not `aria-disabled` (+ at the stock or the cap
    keeps the focus, so it goes off with `aria-disabled`)."""
    return button.is_enabled() and button.get_attribute("aria-disabled") != "true"


def retype(field, *keys):
    """Selects all that `field` holds and types `keys` over it, as a person correcting a number does."""
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(*keys)


def focused(driver):
    return driver.switch_to.active_element


def tab_to(driver, selector, backwards=False, limit=80):
    """Presses Tab (or Shift+Tab) until the element matching `selector` has focus."""
    target = driver.find_element(By.CSS_SELECTOR, selector)
    for _ in range(limit):
        if focused(driver) == target:
            return target
        keys = ActionChains(driver)
        if backwards:
            keys.key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT)
        else:
            keys.send_keys(Keys.TAB)
        keys.perform()
    raise AssertionError(f"Tab never reached {selector}")


def test_add_increment_decrement_delete_and_clear(browser, server):
    shop = Shop(browser, server).open(server.mint())
    assert shop.badge() == 0 and not shop.find(hooked("cart-badge")).is_displayed()

    shop.press("add", "apple")
    shop.wait_for(lambda: shop.quantity("apple") == 1, "Add to turn into − 1 +")
    shop.in_step("after add")
    assert shop.badge() == 1

    shop.press("increment", "apple")
    shop.wait_for(lambda: shop.quantity("apple") == 2, "+ to make 2")
    shop.in_step("after +")

    shop.press("add", "coffee")
    shop.wait_for(lambda: shop.badge() == 3, "the badge to count 3")
    shop.in_step("after a second product")

    shop.press("decrement", "apple")
    shop.wait_for(lambda: shop.quantity("apple") == 1, "− to make 1")
    shop.in_step("after −")

    shop.open_cart()
    assert shop.lines() == {"apple": 1, "coffee": 1}
    assert shop.total() == "$20.28"  # 1.29 + 18.99, as the server writes it
    shop.press("line-delete", "coffee", within="cart-line")
    shop.wait_for(lambda: shop.lines() == {"apple": 1}, "the deleted line to go")
    shop.in_step("after delete")

    shop.press("increment", "apple", within="cart-line")
    shop.wait_for(lambda: shop.lines() == {"apple": 2}, "the line's + to make 2")
    shop.in_step("after the line's +")

    # Clear asks first; keeping the items changes nothing.
    shop.press("clear-cart")
    confirm = shop.find("#confirm-clear")
    shop.wait_for(confirm.is_displayed, "the confirmation dialog")
    assert confirm.get_attribute("role") == "alertdialog"
    assert focused(browser) == shop.find("#confirm-cancel")
    shop.find("#confirm-cancel").click()
    shop.wait_for(lambda: not confirm.is_displayed(), "the dialog to close")
    assert server.cart(shop.cart_id)["totalItems"] == 2

    shop.press("clear-cart")
    shop.wait_for(confirm.is_displayed, "the confirmation dialog again")
    shop.press("confirm-clear")
    shop.wait_for(lambda: shop.find("#cart-empty").is_displayed(), "Cart Empty")
    assert shop.find("#cart-empty").text == "Cart Empty"
    assert not shop.find(hooked("checkout")).is_displayed()
    shop.in_step("after clear")
    assert shop.badge() == 0
    shop.close_cart()
    assert shop.quantity("apple") == 0


def test_quick_clicks_on_plus_and_minus_each_count(browser, server):
    shop = Shop(browser, server).open(server.mint([("pasta", 1)]))
    row = shop.row("pasta")
    # Three clicks in one go, the later ones while the first is on its way.
    browser.execute_script("const plus = arguments[0]; plus.click(); plus.click(); plus.click()",
                           shop.find(hooked("increment"), row))
    shop.wait_for(lambda: shop.quantity("pasta") == 4, "all three clicks to count")
    browser.execute_script("const minus = arguments[0]; minus.click(); minus.click()", shop.find(hooked("decrement"), row))
    shop.wait_for(lambda: shop.quantity("pasta") == 2, "both clicks on − to count")
    # Three on a line of two: the second takes the line away, and the third has nothing to take.
    browser.execute_script("const minus = arguments[0]; minus.click(); minus.click(); minus.click()",
                           shop.find(hooked("decrement"), row))
    shop.wait_for(lambda: shop.quantity("pasta") == 0, "the line to go")
    # A waiting click would have been sent as the line went, before this Add.
    shop.press("add", "pasta")
    shop.wait_for(lambda: shop.quantity("pasta") == 1, "the Add after it")
    removes = browser.execute_script(
        "return performance.getEntriesByType('resource')"
        ".filter((entry) => new URL(entry.name).pathname.endsWith('/items/pasta/remove')).length")
    assert removes == 4 and shop.refusal("pasta") == ""
    assert server.cart(shop.cart_id)["totalItems"] == 1


def test_two_tabs_on_one_cart_stay_in_step(browser, server):
    first = Shop(browser, server).open(server.mint())
    tabs = [browser.current_window_handle]
    # A second tab in the same browser opens the same cart: the ID is kept in localStorage.
    browser.switch_to.new_window("tab")
    tabs.append(browser.current_window_handle)
    second = Shop(browser, server).open()
    assert second.cart_id == first.cart_id

    browser.switch_to.window(tabs[0])
    first.press("add", "bread")
    first.wait_for(lambda: first.quantity("bread") == 1, "the first tab's add")

    browser.switch_to.window(tabs[1])
    second.wait_for(lambda: second.quantity("bread") == 1 and second.badge() == 1, "the second tab to follow")
    second.press("increment", "bread")
    second.wait_for(lambda: second.quantity("bread") == 2, "the second tab's +")

    browser.switch_to.window(tabs[0])
    first.wait_for(lambda: first.quantity("bread") == 2 and first.badge() == 2, "the first tab to follow")
    first.in_step("both tabs")


def test_a_change_from_the_cli_appears_live(browser, server):
    shop = Shop(browser, server).open(server.mint())
    started = time.monotonic()
    server.cli("add", "tea", "3", cart=shop.cart_id)
    exited = time.monotonic()
    shop.wait_for(lambda: shop.quantity("tea") == 3 and shop.badge() == 3, "the CLI's add to appear")
    shown = time.monotonic()
    print(f"CLI add: the process took {exited - started:.2f} s; the page showed it {shown - exited:.2f} s after it exited")
    shop.in_step("after the CLI's add")

    server.cli("clear", cart=shop.cart_id)
    shop.wait_for(lambda: shop.badge() == 0 and shop.quantity("tea") == 0, "the CLI's clear to appear")


def test_a_double_clicked_checkout_places_one_order_and_empties_both_browsers(browser, second_browser, server):
    cart_id = server.mint([("milk", 2), ("pasta", 1)])
    other = Shop(second_browser, server).open(cart_id)
    shop = Shop(browser, server).open(cart_id)
    shop.wait_for(lambda: shop.badge() == 3 and other.badge() == 3, "both browsers to show 3 items")
    other.open_cart()

    shop.open_cart()
    ActionChains(browser).double_click(shop.find(hooked("checkout"))).perform()
    confirmation = shop.find(hooked("order-confirmation"))
    shop.wait_for(lambda: confirmation.is_displayed(), "the order confirmation")
    orders = server.orders(cart_id)
    assert len(orders) == 1, orders
    # What was charged, as the order has it.
    assert confirmation.text.replace("\u00a0", " ") == (
        f"Order #{orders[0]['number']} placed: 3 items, {shown(orders[0]['total'], 'USD')}")

    shop.wait_for(lambda: shop.find("#cart-empty").is_displayed() and shop.badge() == 0, "the cart to empty here")
    other.wait_for(lambda: other.find("#cart-empty").is_displayed() and other.badge() == 0, "the cart to empty there")
    assert other.find("#cart-title").text == "Cart (0)"
    # The history shows the order in both browsers.
    number = str(orders[0]["number"])
    for page in (shop, other):
        page.wait_for(lambda: page.driver.find_elements(By.CSS_SELECTOR, f'[data-testid="order"][data-number="{number}"]'),
                      "the order in the history")
    assert len(server.orders(cart_id)) == 1


def test_stock_the_shop_knows_of_is_not_offered_and_a_refusal_is_shown_next_to_the_control(browser, server):
    shop = Shop(browser, server).open(server.mint())
    row = shop.row("saffron")
    assert shop.find(".stock", row).text == "Out of stock"
    assert not shop.find(hooked("add"), row).is_enabled()

    # Olive oil has 3 in stock: at 3, + is not offered.
    shop.press("add", "olive-oil")
    for count in (2, 3):
        shop.wait_for(lambda: shop.quantity("olive-oil") == count - 1, f"{count - 1} units")
        shop.press("increment", "olive-oil")
    shop.wait_for(lambda: shop.quantity("olive-oil") == 3, "3 units")
    increment = shop.find(hooked("increment"), shop.row("olive-oil"))
    shop.wait_for(lambda: not offered(increment), "+ to be off at the stock")
    # The row says why.
    assert shop.find(".stock", shop.row("olive-oil")).text == "All 3 in stock are in your cart"
    # The cart sheet's + for the line is off too.
    shop.open_cart()
    sheet_increment = shop.find(hooked("increment"), shop.line("olive-oil"))
    shop.wait_for(lambda: not offered(sheet_increment), "the sheet's + to be off at the stock")
    shop.close_cart()
    shop.press("decrement", "olive-oil")
    shop.wait_for(lambda: shop.quantity("olive-oil") == 2 and offered(increment), "+ back on below the stock")
    assert shop.find(".stock", shop.row("olive-oil")).text == "Only 3 left"
    shop.open_cart()
    shop.wait_for(lambda: offered(sheet_increment), "the sheet's + back on below the stock")
    shop.close_cart()

    # Stock sold elsewhere, which the page has not heard of: the server's refusal is shown beside
    # Add, in the product's name, and Add then goes off.
    server.cli("products", "add", "fig-jam", "--name", "Fig jam", "--price", "3.20", "--stock", "4")
    shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
    shop.wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, hooked("product-row", "fig-jam")), "the new product")
    server.cli("products", "update", "fig-jam", "--stock", "0")
    shop.press("add", "fig-jam")
    shop.wait_for(lambda: "Fig jam" in shop.refusal("fig-jam"), "the refusal beside Add")
    assert "'fig-jam'" not in shop.refusal("fig-jam")
    add = shop.find(hooked("add"), shop.row("fig-jam"))
    shop.wait_for(lambda: not add.is_enabled(), "Add to go off once the stock is read again")
    assert shop.quantity("fig-jam") == 0
    shop.in_step("after the refusal")
    # A change to the cart clears the refusal, which was about the cart as it was.
    shop.press("decrement", "olive-oil")
    decrement = shop.find(hooked("decrement"), shop.row("olive-oil"))
    # Answered too: a quantity typed while a change of its line is on its way is sent after it.
    shop.wait_for(lambda: shop.quantity("olive-oil") == 1 and shop.refusal("fig-jam") == ""
                  and decrement.get_attribute("aria-busy") is None, "the refusal to go")
    # A quantity typed over the stock the page shows is refused there, in the product's name,
    # without a request the server would refuse.
    shop.open_cart()
    field = shop.find(hooked("quantity"), shop.line("olive-oil"))
    name = shop.find(".line-name", shop.line("olive-oil")).text
    line_requests = ("return performance.getEntriesByType('resource')"
                     ".filter((entry) => entry.name.endsWith('/items/olive-oil')).length")
    sent_before = browser.execute_script(line_requests)
    retype(field, "5", Keys.ENTER)
    line_refusal = shop.find(hooked("refusal"), shop.line("olive-oil"))
    shop.wait_for(lambda: line_refusal.text == f"Only 3 of {name} left.", "the stock's refusal on the line")
    assert field.get_attribute("value") == "1"
    assert browser.execute_script(line_requests) == sent_before, "a request was sent for the line"
    assert [line["quantity"] for line in server.cart(shop.cart_id)["items"] if line["sku"] == "olive-oil"] == [1]


def test_problems_are_shown_on_their_lines_before_checkout(browser, server):
    server.cli("products", "add", "truffle", "--name", "Black truffle", "--price", "24.00", "--stock", "5")
    shop = Shop(browser, server).open(server.mint([("truffle", 2), ("apple", 1)]))
    shop.open_cart()
    shop.wait_for(lambda: shop.lines() == {"truffle": 2, "apple": 1}, "the lines")
    assert not browser.find_elements(By.CSS_SELECTOR, hooked("problem"))

    server.cli("products", "update", "truffle", "--stock", "1")
    # The text is read inside the wait, which polls again past an element a render replaced.
    problem = shop.wait_for(lambda: shop.find(hooked("problem"), shop.line("truffle")).text, "a stock problem on the line")
    assert "stock" in problem
    # In the product's name, as the refusals are, not its SKU.
    assert "Black truffle" in problem and "'truffle'" not in problem
    server.cli("products", "update", "truffle", "--inactive")
    shop.wait_for(lambda: "not for sale" in shop.find(hooked("problem"), shop.line("truffle")).text,
                  "an inactive-product problem on the line")
    assert not shop.line("apple").find_elements(By.CSS_SELECTOR, hooked("problem"))

    # A product no longer for sale gets no + on its line.
    shop.wait_for(lambda: not offered(shop.find(hooked("increment"), shop.line("truffle"))), "+ off on the inactive line")
    assert offered(shop.find(hooked("increment"), shop.line("apple")))
    # The line's problem is what describes its + that is off.
    truffle = shop.line("truffle")
    assert (shop.find(hooked("increment"), truffle).get_attribute("aria-describedby")
            == shop.find(".problems", truffle).get_attribute("id"))

    # Checkout is off while the cart has problems, and says why; it stays focusable.
    checkout = shop.find(hooked("checkout"))
    assert checkout.get_attribute("aria-disabled") == "true"
    note = shop.find("#checkout-blocked")
    assert note.is_displayed() and note.text == "Fix the problems above to check out."
    assert checkout.get_attribute("aria-describedby") == "checkout-blocked"
    shop.press("checkout")
    assert server.orders(shop.cart_id) == []
    assert not shop.find("#cart-refusal").is_displayed()

    # Should the page not know yet, the server refuses, in the shopper's words: the product's
    # name and "your cart", not its SKU and ID; and the message wraps inside the sheet.
    browser.execute_script("document.getElementById('checkout').removeAttribute('aria-disabled')")
    shop.press("checkout")
    refusal = shop.find("#cart-refusal")
    shop.wait_for(lambda: refusal.is_displayed() and refusal.text, "checkout's refusal")
    assert server.orders(shop.cart_id) == []
    assert "Black truffle" in refusal.text and "Your cart" in refusal.text, refusal.text
    assert shop.cart_id not in refusal.text and "'truffle'" not in refusal.text, refusal.text

    # Taking the problem lines out turns Checkout back on.
    server.cli("--cart", shop.cart_id, "delete", "truffle")
    shop.wait_for(lambda: checkout.get_attribute("aria-disabled") == "false" and not note.is_displayed(),
                  "Checkout on again")
    assert browser.execute_script(
        "return [document.getElementById('cart'), document.querySelector('#cart .sheet-body')]"
        ".every((element) => element.scrollWidth <= element.clientWidth)")


def test_a_sku_holding_a_quote_is_told_by_the_products_name_in_problems_and_refusals(browser, server):
    # A SKU may hold a quote, as the server's messages quote SKUs with: the page still finds it.
    server.cli("products", "add", "kid's-tee", "--name", "Kids' tee", "--price", "9.00", "--stock", "3")
    server.cli("products", "add", "men's-cap", "--name", "Men's cap", "--price", "12.00", "--stock", "4")
    shop = Shop(browser, server).open(server.mint([("kid's-tee", 2), ("men's-cap", 1)]))
    shop.settled()
    shop.open_cart()
    server.cli("products", "update", "kid's-tee", "--stock", "1")
    problem = shop.wait_for(lambda: shop.find(hooked("problem"), shop.line("kid's-tee")).text, "a stock problem on the line")
    assert problem == "Kids' tee: 2 in the cart, 1 in stock.", problem
    shop.close_cart()

    # The stock lowered to what the line holds changes nothing the cart shows, so the page
    # still offers +: the server's refusal names the product.
    server.cli("products", "update", "men's-cap", "--stock", "1")
    shop.press("increment", "men's-cap")
    shop.wait_for(lambda: shop.refusal("men's-cap") == "Only 1 of Men's cap left.", "the stock's refusal in words")
    server.cli("products", "add", "girl's-hat", "--name", "Girls' hat", "--price", "7.00", "--stock", "2")
    shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
    shop.wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, hooked("product-row", "girl's-hat")), "the new product")
    server.cli("products", "update", "girl's-hat", "--stock", "0")
    shop.press("add", "girl's-hat")
    shop.wait_for(lambda: shop.refusal("girl's-hat") == "Girls' hat is out of stock.", "the refusal beside Add in words")


def test_a_refusal_about_a_products_stock_or_sale_goes_once_the_products_read_again_say_otherwise(browser, server):
    server.cli("products", "add", "restock", "--name", "Restock", "--price", "4.00", "--stock", "1")
    server.cli("products", "add", "seasonal", "--name", "Seasonal", "--price", "6.00", "--stock", "9")
    shop = Shop(browser, server).open(server.mint()).settled()
    add = shop.find(hooked("add"), shop.row("restock"))
    # Sold out elsewhere: the refusal stays once the products read after it (which turn Add
    # off) show the same stock.
    server.cli("products", "update", "restock", "--stock", "0")
    shop.press("add", "restock")
    shop.wait_for(lambda: shop.refusal("restock") == "Restock is out of stock." and not add.is_enabled(),
                  "the stock's refusal, and Add off")
    # Restocked, which changes no cart: the products read again take the refusal away.
    server.cli("products", "update", "restock", "--stock", "5")
    shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
    shop.wait_for(lambda: shop.find(".stock", shop.row("restock")).text == "Only 5 left" and add.is_enabled(),
                  "the new stock, and Add back on")
    assert shop.refusal("restock") == ""

    # Taken off sale elsewhere: the refusal above the list goes once the product is for sale again.
    server.cli("products", "update", "seasonal", "--inactive")
    shop.press("add", "seasonal")
    above = shop.find("#products-refusal")
    shop.wait_for(lambda: above.is_displayed() and above.text == "Seasonal is not for sale."
                  and not browser.find_elements(By.CSS_SELECTOR, hooked("product-row", "seasonal")),
                  "the refusal above the list, and the row gone")
    server.cli("products", "update", "seasonal", "--active")
    shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
    shop.wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, hooked("product-row", "seasonal")), "the row back")
    assert not above.is_displayed()


def test_a_price_changed_by_the_cli_reaches_the_product_list_without_a_reload(browser, server):
    server.cli("products", "add", "plum-jam", "--name", "Plum jam", "--price", "4.50")
    shop = Shop(browser, server).open(server.mint([("plum-jam", 1)]))
    browser.execute_script("window.notReloaded = true")
    price = shop.find(".price", shop.row("plum-jam"))
    assert price.get_attribute("textContent") == "$4.50"

    server.cli("products", "update", "plum-jam", "--price", "5.25", "--name", "Damson jam")
    shop.wait_for(lambda: price.get_attribute("textContent") == "$5.25", "the product row to show the new price")
    assert shop.find(".product-name", shop.row("plum-jam")).get_attribute("textContent") == "Damson jam"
    assert shop.total() == "$5.25"
    assert browser.execute_script("return window.notReloaded === true"), "the page was not reloaded"


def test_a_line_whose_price_changed_says_what_it_was_and_checkout_charges_the_new_one(browser, server):
    server.cli("products", "add", "kiwi", "--name", "Kiwi", "--price", "2.00")
    shop = Shop(browser, server).open(server.mint([("kiwi", 2)]))
    shop.open_cart()
    price = shop.find(".unit-price", shop.line("kiwi"))
    shop.wait_for(lambda: price.text == "$2.00 each", "the line at its price")
    server.cli("products", "update", "kiwi", "--price", "2.50")
    shop.wait_for(lambda: price.text == "$2.50 each (was $2.00)", "the line to say its old price")
    assert shop.find("#cart-total").text == "$5.00"
    shop.press("checkout")
    confirmation = shop.find(hooked("order-confirmation"))
    shop.wait_for(confirmation.is_displayed, "the order confirmation")
    # The page had shown the new total, so the confirmation has nothing to add.
    assert confirmation.text.replace("\u00a0", " ").endswith("placed: 2 items, $5.00"), confirmation.text


def repriced_unseen(browser, server, sku, name, shown, now):
    """A shop open on a new cart whose row of `sku` shows `shown`, after the product's price
    changed to `now`: the product is in no cart, so no event brings the change to the page."""
    server.cli("products", "add", sku, "--name", name, "--price", shown)
    shop = Shop(browser, server).open(server.mint())
    row = shop.row(sku)
    assert shop.find(".price", row).get_attribute("textContent") == "$" + shown
    server.cli("products", "update", sku, "--price", now)
    return shop, row


def test_a_unit_added_at_a_price_the_list_did_not_show_yet_is_said_beside_the_row_and_on_the_line(browser, server):
    shop, row = repriced_unseen(browser, server, "quince-jam", "Quince jam", "4.00", "4.80")
    shop.press("add", "quince-jam")
    shop.wait_for(lambda: shop.refusal("quince-jam") == "Quince jam costs $4.80 now, not the $4.00 shown.",
                  "the word that the price changed")
    shop.wait_for(lambda: shop.find(".price", row).get_attribute("textContent") == "$4.80", "the row read again")
    shop.open_cart()
    assert shop.find(".unit-price", shop.line("quince-jam")).text == "$4.80 each (was $4.00)"
    # A unit added at the price shown says nothing.
    shop.close_cart()
    shop.press("increment", "quince-jam")
    shop.wait_for(lambda: shop.quantity("quince-jam") == 2, "the second unit")
    assert shop.refusal("quince-jam") == ""


def test_a_unit_added_at_a_new_price_says_so_on_its_line_when_the_event_comes_before_the_answer(browser, server):
    shop, _ = repriced_unseen(browser, server, "medlar-jam", "Medlar jam", "5.00", "5.60")
    # The add's answer is held back until the cart's event has drawn the new line.
    shop.driver.execute_script("""
        const sent = window.fetch;
        window.fetch = async (path, init) => {
          const response = await sent(path, init);
          if (init && init.method === "POST") {
            while (!document.querySelector('#cart-lines [data-sku="medlar-jam"]')) {
              await new Promise((resolve) => setTimeout(resolve, 20));
            }
          }
          return response;
        };
    """)
    shop.press("add", "medlar-jam")
    shop.wait_for(lambda: shop.refusal("medlar-jam") == "Medlar jam costs $5.60 now, not the $5.00 shown.",
                  "the word that the price changed")
    shop.open_cart()
    assert shop.find(".unit-price", shop.line("medlar-jam")).text == "$5.60 each (was $5.00)"


def test_an_order_placed_from_the_cart_elsewhere_is_said_in_the_open_sheet(browser, server):
    cart_id = server.mint([("apple", 2)])
    shop = Shop(browser, server).open(cart_id)
    shop.open_cart()
    shop.wait_for(lambda: shop.lines() == {"apple": 2}, "the two apples")
    confirmation = shop.find(hooked("order-confirmation"))
    # Another browser the cart was shared with places its order.
    status, body = server.api("POST", f"/v1/carts/{cart_id}/checkout", headers={"Idempotency-Key": f"there-{cart_id}"})
    assert status == 201, body
    number, total = body["order"]["number"], body["order"]["total"]
    shop.wait_for(lambda: confirmation.text.replace("\u00a0", " ")
                  == f"Order #{number} was placed from this cart elsewhere: 2 items, ${total}", "the word of the order")
    # This page's own order is confirmed as its own, and a cart cleared elsewhere is no order.
    server.cli("add", "apple", cart=cart_id)
    shop.wait_for(lambda: shop.lines() == {"apple": 1}, "an apple again")
    shop.press("checkout")
    shop.wait_for(lambda: " placed: 1 item, " in confirmation.text.replace("\u00a0", " "), "this page's own order")
    time.sleep(1)
    assert "elsewhere" not in confirmation.text
    server.cli("add", "apple", cart=cart_id)
    shop.wait_for(lambda: shop.lines() == {"apple": 1}, "an apple again")
    server.cli("clear", cart=cart_id)
    shop.wait_for(lambda: shop.lines() == {}, "the cart cleared")
    time.sleep(1)
    assert confirmation.text == ""


def test_the_product_list_read_again_unchanged_is_answered_304(browser, server):
    shop = Shop(browser, server).open(server.mint())
    logged = server.log.stat().st_size
    reads = shop.product_reads()
    shop.press("add", "apple")
    shop.wait_for(lambda: shop.quantity("apple") == 1 and shop.product_reads() > reads, "the products read again")
    # The browser kept the page and asked with its ETag: nothing changed, so no body came.
    shop.wait_for(lambda: " GET /v1/products 304 " in server.log.read_bytes()[logged:].decode(), "a 304 in the access log")
    assert shop.find(".price", shop.row("apple")).get_attribute("textContent").startswith("$")


def test_a_long_catalog_gets_a_search_field_that_hides_the_rows_that_do_not_match(browser, server):
    shop = Shop(browser, server).open(server.mint())
    search = shop.find(hooked("product-search"))
    listed = len(browser.find_elements(By.CSS_SELECTOR, hooked("product-row")))
    assert search.is_displayed() == (listed > 20), "a catalog of 20 products or fewer is listed whole"
    skus = [f"tin-{index:02}" for index in range(24)]
    for index, sku in enumerate(skus):
        server.cli("products", "add", sku, "--name", f"Sardine tin {index:02}", "--price", "2.10")
    try:
        shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
        shop.wait_for(search.is_displayed, "the search field for the longer catalog")
        shown = lambda: [row.get_attribute("data-sku") for row in browser.find_elements(By.CSS_SELECTOR, hooked("product-row"))
                         if row.is_displayed()]
        status = shop.find("#products-status")
        browser.execute_script("window.statusWrites = [];"
                               "new MutationObserver(() => window.statusWrites.push(arguments[0].textContent))"
                               ".observe(arguments[0], {childList: true, characterData: true, subtree: true})", status)
        search.send_keys("SARDINE TIN 1")
        shop.wait_for(lambda: shown() == [f"tin-{index}" for index in range(10, 20)], "the ten tins that match")
        # How many match is said in the status region, which a screen reader announces: once
        # the typing pauses, not for each of the 13 keys.
        shop.wait_for(lambda: status.text == "10 products match “SARDINE TIN 1”.", "the count said")
        assert status.get_attribute("role") == "status"
        writes = browser.execute_script("return window.statusWrites")
        assert writes[-1] == "10 products match “SARDINE TIN 1”." and len(writes) <= 3, writes
        # A change to the cart keeps the search.
        shop.press("add", "tin-12")
        shop.wait_for(lambda: shop.quantity("tin-12") == 1, "a tin added from the search")
        assert shown() == [f"tin-{index}" for index in range(10, 20)]
        # Renamed elsewhere so that it no longer matches, the row hides and the focus on its
        # + goes back to the search.
        shop.find(hooked("increment"), shop.row("tin-12")).send_keys(Keys.SHIFT)
        server.cli("products", "update", "tin-12", "--name", "Mackerel tin")
        shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
        shop.wait_for(lambda: "tin-12" not in shown(), "the renamed tin hidden")
        assert focused(browser) == search
        # The + that went off says why.
        server.cli("products", "update", "tin-13", "--stock", "1")
        shop.press("add", "tin-13")
        plus = shop.find(hooked("increment"), shop.row("tin-13"))
        shop.wait_for(lambda: plus.get_attribute("aria-disabled") == "true", "+ off at the stock")
        note = shop.find(".stock", shop.row("tin-13"))
        assert plus.get_attribute("aria-describedby") == note.get_attribute("id") and note.text == "The last one is in your cart"
        server.cli("delete", "tin-13", cart=shop.cart_id)
        search.send_keys("9x")
        shop.wait_for(lambda: shown() == [] and status.text == "No product matches “SARDINE TIN 19x”.", "no match, said")
        retype(search, Keys.BACKSPACE)
        shop.wait_for(lambda: len(shown()) > 30 and not status.is_displayed(), "the whole list again")
    finally:
        server.cli("delete", "tin-12", cart=shop.cart_id)
        for sku in skus:
            server.cli("products", "delete", sku)


def test_a_double_click_on_add_adds_one_unit(browser, server):
    shop = Shop(browser, server).open(server.mint())
    shop.press("add", "apple")
    shop.wait_for(lambda: shop.quantity("apple") == 1, "one apple")
    # The second click of the double click lands on the + that took Add's place.
    # Only that click: the one after it in the sequence (a triple click) is a unit more.
    increment = shop.find(hooked("increment"), shop.row("apple"))
    browser.execute_script("for (const detail of [2, 3]) arguments[0].dispatchEvent("
                           "new MouseEvent('click', {bubbles: true, detail}))", increment)
    shop.wait_for(lambda: server.cart(shop.cart_id)["totalItems"] == 2, "the third click on + counted")
    time.sleep(1)
    assert shop.quantity("apple") == 2 and server.cart(shop.cart_id)["totalItems"] == 2
    # Two clicks on + are two units.
    shop.press("increment", "apple")
    shop.press("increment", "apple")
    shop.wait_for(lambda: server.cart(shop.cart_id)["totalItems"] == 4, "two more apples")


def test_a_quantity_typed_and_then_checkout_clicked_orders_the_typed_quantity(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1)]))
    shop.open_cart()
    field = shop.find(hooked("quantity"), shop.line("apple"))
    retype(field, "5")
    # The click takes the focus from the field, which sends the 5; with the server held, the
    # order's request would overtake it, or carry the version before it.
    with held(server):
        shop.find("#checkout").click()
    confirmation = shop.find(hooked("order-confirmation"))
    shop.wait_for(confirmation.is_displayed, "the order confirmation")
    assert confirmation.text.replace("\u00a0", " ").startswith("Order #"), confirmation.text
    assert " placed: 5 items, " in confirmation.text.replace("\u00a0", " "), confirmation.text
    assert [order["totalItems"] for order in server.orders(shop.cart_id)] == [5]
    assert not shop.find("#cart-refusal").is_displayed()

    # A quantity the page refuses itself (over the per-line cap) stops the click's order.
    server.cli("add", "apple", cart=shop.cart_id)
    shop.wait_for(lambda: shop.lines() == {"apple": 1}, "an apple again")
    field = shop.find(hooked("quantity"), shop.line("apple"))
    retype(field, "5000")
    shop.find("#checkout").click()
    refusal = shop.find(hooked("refusal"), shop.line("apple"))
    shop.wait_for(lambda: "the most a cart can hold" in refusal.text, "the refusal beside the line")
    time.sleep(1)
    assert len(server.orders(shop.cart_id)) == 1, "no order placed at the quantity the shopper did not ask for"

    # Clicks on + still queued behind the one on its way are part of the order.
    plus = shop.find(hooked("increment"), shop.line("apple"))
    with held(server):
        for _ in range(3):
            plus.click()
        shop.find("#checkout").click()
    shop.wait_for(lambda: len(server.orders(shop.cart_id)) == 2, "the second order")
    assert server.orders(shop.cart_id)[0]["totalItems"] == 4


def test_a_quantity_refused_as_typed_stays_said_when_a_change_queued_before_it_lands(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1)]))
    shop.open_cart()
    line = shop.line("apple")
    refusal = shop.find(hooked("refusal"), line)
    with held(server):
        shop.find(hooked("increment"), line).click()
        field = shop.find(hooked("quantity"), line)
        retype(field, "two")
        # Leaving the field for Checkout: the page refuses the words, and the click places
        # no order.
        shop.find("#checkout").click()
        shop.wait_for(lambda: "whole number" in refusal.text, "the refusal of the words typed")
    # The + lands and the cart is drawn at its new version: the refusal still says why no
    # order was placed.
    shop.wait_for(lambda: shop.lines() == {"apple": 2}, "the + made")
    time.sleep(0.5)
    assert "whole number" in refusal.text
    assert server.orders(shop.cart_id) == []
    # Typing again takes it away.
    field = shop.find(hooked("quantity"), shop.line("apple"))
    retype(field, "3")
    shop.wait_for(lambda: not refusal.is_displayed(), "the refusal gone once typing again")
    field.send_keys(Keys.ENTER)
    shop.wait_for(lambda: server.cart(shop.cart_id)["totalItems"] == 3, "the 3 typed")


def test_a_change_to_a_product_outside_the_cart_appears_when_the_page_is_shown_again(browser, server):
    # No cart event carries it (the cart's JSON is the same), so the page reads the products
    # again when the shopper returns to it.
    server.cli("products", "add", "quince", "--name", "Quince paste", "--price", "6.00")
    shop = Shop(browser, server).open(server.mint([("apple", 1)]))
    # Once at start and once for the stream's first event; after that only coming back reads.
    shop.wait_for(lambda: shop.product_reads() >= 2, "the products read for the stream's first event")
    browser.execute_script("window.notReloaded = true")
    shop_tab = browser.current_window_handle
    browser.switch_to.new_window("tab")
    server.cli("products", "update", "quince", "--price", "6.40", "--stock", "0")
    browser.close()
    browser.switch_to.window(shop_tab)
    row = shop.row("quince")
    shop.wait_for(lambda: shop.find(".price", row).get_attribute("textContent") == "$6.40"
                  and shop.find(".stock", row).is_displayed(), "the new price and Out of stock")
    assert browser.execute_script("return window.notReloaded === true"), "the page was not reloaded"


def test_a_problem_of_the_whole_cart_is_shown_before_checkout(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1), ("bread", 1), ("milk", 1)]))
    shop.open_cart()
    shop.wait_for(lambda: len(shop.lines()) == 3, "the three lines")
    problems = shop.find(hooked("cart-problems"))
    assert not problems.is_displayed()
    try:
        server.cli("db", "init", "--max-lines", "2")
        problem = shop.wait_for(lambda: problems.is_displayed() and shop.find(hooked("problem"), problems),
                                "the cart's problem above Checkout")
        assert problem.get_attribute("data-code") == "line_count_cap"
        assert problem.text
        assert shop.find(hooked("checkout")).get_attribute("aria-disabled") == "true"
        assert not browser.find_elements(By.CSS_SELECTOR, f'{hooked("cart-line")} {hooked("problem")}')
        assert not shop.find("#cart-refusal").is_displayed()
    finally:
        server.cli("db", "init", "--max-lines", "100")
    shop.wait_for(lambda: not problems.is_displayed(), "the problem to go with the cap raised again")


def write_directly(server, *statements):
    """Runs `statements` ((sql, parameters), ...) on the server's store as another client
    would, checks and foreign keys off: values the service never writes itself."""
    import sqlite3

    db = sqlite3.connect(server.db)
    try:
        db.execute("PRAGMA foreign_keys = OFF")
        with db:
            db.execute("PRAGMA ignore_check_constraints = ON")
            for sql, parameters in statements:
                db.execute(sql, parameters)
    finally:
        db.close()


def test_a_line_the_store_holds_damaged_is_named_above_checkout_and_removed_there(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 2), ("bread", 1)]))
    shop.open_cart()
    shop.wait_for(lambda: len(shop.lines()) == 2, "the two lines")
    problems = shop.find(hooked("cart-problems"))
    cart_id = shop.cart_id
    write_directly(server, ("UPDATE cart_lines SET quantity = -5 WHERE cart_id = ? AND sku = 'apple'", (cart_id,)))
    # Another client's write reaches the page like any change: the rest of the cart stays.
    problem = shop.wait_for(lambda: problems.is_displayed() and shop.find(hooked("problem"), problems),
                            "the damaged line named above Checkout")
    assert problem.get_attribute("data-code") == "damaged_line"
    # In the shopper's words: the product's name, and what mends it here.
    assert shop.find(".problem-text", problem).text == \
        "Apple: your cart holds -5 of it, which no line can hold. Remove it to check out."
    assert len(shop.lines()) == 1 and shop.quantity("bread") == 1
    assert shop.find(hooked("checkout")).get_attribute("aria-disabled") == "true"
    # Adding to the line is refused by the server, so the product's Add is not offered, and
    # its row says why.
    apple = shop.row("apple")
    assert not shop.find(hooked("add"), apple).is_enabled()
    assert shop.find(".stock", apple).get_attribute("textContent") == \
        "Its line in your cart cannot be read: remove it there first."
    # The line has no row of its own, so its problem offers Remove, named for screen readers.
    remove = shop.find(hooked("line-delete"), problem)
    assert remove.text == "Remove"
    assert remove.get_attribute("aria-label") == "Remove Apple from the cart"
    remove.click()
    shop.wait_for(lambda: not problems.is_displayed(), "the problem to go once the line is removed")
    assert shop.find(hooked("checkout")).get_attribute("aria-disabled") != "true"
    assert shop.lines() == {"bread": 1}
    assert shop.find(hooked("add"), apple).is_enabled() and not shop.find(".stock", apple).get_attribute("textContent")
    # The focus on the Remove that went is not lost to the page.
    assert focused(browser) == shop.find("#cart-done")
    assert [line["sku"] for line in server.cart(cart_id)["items"]] == ["bread"]


def test_a_line_whose_product_left_the_catalog_is_removed_from_its_problem(browser, server):
    # Products of this test's own, so the session's catalog stays as the other tests know it.
    for sku, name in (("old-jam", "Old jam"), ("old-tea", "Old tea")):
        server.cli("products", "add", sku, "--name", name, "--price", "2.00")
    shop = Shop(browser, server).open(server.mint([("old-jam", 1), ("bread", 1), ("old-tea", 1)]))
    shop.open_cart()
    shop.wait_for(lambda: len(shop.lines()) == 3, "the three lines")
    cart_id = shop.cart_id
    # Another client deletes both products with the store's checks off: their lines stay.
    write_directly(server, ("DELETE FROM products WHERE sku IN ('old-jam', 'old-tea')", ()))
    problems = shop.find(hooked("cart-problems"))
    shop.wait_for(lambda: len(problems.find_elements(By.CSS_SELECTOR, hooked("problem"))) == 2,
                  "both lines named above Checkout")
    items = problems.find_elements(By.CSS_SELECTOR, hooked("problem"))
    assert [item.get_attribute("data-code") for item in items] == ["unknown_product", "unknown_product"]
    assert shop.lines() == {"bread": 1}
    # Named as the page showed them before they went.
    assert shop.find(".problem-text", items[0]).text == "Old jam is no longer in the catalog."
    assert shop.find(hooked("line-delete"), items[1]).get_attribute("aria-label") == "Remove Old tea from the cart"
    # With the keyboard: Remove on the first; the focus goes to the next problem's Remove.
    tab_to(browser, f'{hooked("problem")}[data-sku="old-jam"] {hooked("line-delete")}')
    focused(browser).send_keys(Keys.ENTER)
    shop.wait_for(lambda: len(problems.find_elements(By.CSS_SELECTOR, hooked("problem"))) == 1, "one problem left")
    assert focused(browser) == shop.find(f'{hooked("problem")}[data-sku="old-tea"] {hooked("line-delete")}')
    focused(browser).send_keys(Keys.ENTER)
    shop.wait_for(lambda: not problems.is_displayed(), "no problem left")
    assert shop.find(hooked("checkout")).get_attribute("aria-disabled") != "true"
    assert [line["sku"] for line in server.cart(cart_id)["items"]] == ["bread"]


def test_a_product_name_no_order_can_keep_stops_checkout_on_its_line(browser, server):
    server.cli("products", "add", "odd-tea", "--name", "Odd tea", "--price", "3.00")
    cart_id = server.mint([("odd-tea", 1), ("bread", 1)])
    try:
        shop = Shop(browser, server).open(cart_id)
        shop.open_cart()
        shop.wait_for(lambda: len(shop.lines()) == 2, "the two lines")
        write_directly(server, ("UPDATE products SET name = '' WHERE sku = 'odd-tea'", ()))
        line = shop.find(hooked("cart-line", "odd-tea"))
        problem = shop.wait_for(lambda: shop.find(hooked("problem"), line) if line.find_elements(
            By.CSS_SELECTOR, hooked("problem")) else None, "the problem on the line")
        assert problem.get_attribute("data-code") == "damaged_product"
        assert problem.text == "This product cannot be ordered until the shop fixes its name. Remove it to check out."
        assert shop.find(hooked("checkout")).get_attribute("aria-disabled") == "true"
        # A blank name leaves the line and the product's row named by the SKU.
        assert shop.find(".line-name", line).text == "odd-tea"
        # The row follows once the product list, read again after the cart's event, answers.
        shop.wait_for(lambda: shop.find(hooked("add"), shop.row("odd-tea")).get_attribute("aria-label")
                      == "Add odd-tea to the cart", "the row named by the SKU")
        server.cli("products", "update", "odd-tea", "--name", "Odd tea")
        shop.wait_for(lambda: not line.find_elements(By.CSS_SELECTOR, hooked("problem")), "the problem to go once renamed")
        assert shop.find(hooked("checkout")).get_attribute("aria-disabled") != "true"
    finally:
        # The session's catalog as the other tests know it.
        server.cli("delete", "odd-tea", cart=cart_id)
        server.cli("products", "update", "odd-tea", "--name", "Odd tea")
        server.cli("products", "delete", "odd-tea")


def test_the_page_survives_a_server_restart(browser, server):
    shop = Shop(browser, server).open(server.mint())
    shop.press("add", "eggs")
    shop.wait_for(lambda: shop.badge() == 1, "the add")

    server.stop()
    banner = shop.find("#connection")
    shop.wait_for(banner.is_displayed, "the page to say it lost the connection")
    # Tried while the server is down: refused next to the control, not silently.
    shop.press("increment", "eggs")
    shop.wait_for(lambda: "cannot be reached" in shop.refusal("eggs"), "the unreachable refusal")

    server.start()
    shop.wait_for(lambda: not banner.is_displayed(), "the page to reconnect", timeout=30)
    server.cli("add", "eggs", "2", cart=shop.cart_id)
    shop.wait_for(lambda: shop.quantity("eggs") == 3, "a change after the restart to arrive live")
    shop.press("increment", "eggs")
    shop.wait_for(lambda: shop.quantity("eggs") == 4 and shop.refusal("eggs") == "", "a click after the restart")
    shop.in_step("after the restart")
    # With the sheet open, its own status region says the drop and the return, and the cart
    # drawn after the return leaves those words alone.
    shop.open_cart()
    connection = shop.find("#sheet-connection")
    server.stop()
    shop.wait_for(lambda: connection.get_attribute("textContent").startswith("Connection to the shop lost"), "the drop said")
    server.start()
    shop.wait_for(lambda: connection.get_attribute("textContent") == "Connected to the shop again.", "the return said",
                  timeout=30)
    server.cli("add", "eggs", cart=shop.cart_id)
    shop.wait_for(lambda: shop.lines() == {"eggs": 5}, "a change after the return")
    assert connection.get_attribute("textContent") == "Connected to the shop again."
    shop.close_cart()


def test_a_checkout_while_the_shop_cannot_be_reached_says_so_and_goes_through_once_it_is_back(browser, server):
    cart_id = server.mint([("eggs", 1)])
    shop = Shop(browser, server).open(cart_id)
    shop.open_cart()
    server.stop()
    clicked = time.monotonic()
    shop.press("checkout")
    refusal = shop.find("#cart-refusal")
    trying = "The shop cannot be reached; trying again…"
    shop.wait_for(lambda: refusal.get_attribute("textContent") == trying, "the retry said")
    # Past the moment a slow answer is said: the control keeps saying why it waits.
    time.sleep(max(0, clicked + 4.6 - time.monotonic()))
    assert refusal.get_attribute("textContent") == trying
    server.start()
    confirmation = shop.find(hooked("order-confirmation"))
    shop.wait_for(lambda: confirmation.is_displayed() or "Check the connection" in refusal.text,
                  "the last try's answer", timeout=15)
    if not confirmation.is_displayed():
        # The server came back after the last try: the shopper asks again.
        shop.press("checkout")
        shop.wait_for(confirmation.is_displayed, "the order confirmation")
    assert refusal.get_attribute("textContent") == ""
    assert len(server.orders(cart_id)) == 1


@contextmanager
def heartbeat_every_second(server):
    """The server restarted with a heartbeat each second for the block, then as it was."""
    server.stop()
    server.options = ("--heartbeat", "1")
    try:
        server.start()
        yield
    finally:
        server.stop()
        server.options = ()
        server.start()


def test_a_shop_that_stops_answering_is_said_and_a_click_meanwhile_ends_refused(browser, server):
    # A server that hangs keeps its connections open: only the missing heartbeats tell.
    with heartbeat_every_second(server):
        shop = Shop(browser, server).open(server.mint([("eggs", 1)]))
        banner = shop.find("#connection")
        # A heartbeat names the interval: the page then waits two of them and two seconds.
        time.sleep(1.5)
        with held(server, settle=0):
            shop.press("increment", "eggs")
            shop.wait_for(lambda: banner.is_displayed() and banner.text.startswith("Connection to the shop lost"),
                          "the page to say the shop went silent", timeout=10)
            shop.wait_for(lambda: "stopped answering" in shop.refusal("eggs"), "the click's refusal", timeout=5)
        shop.wait_for(lambda: not banner.is_displayed(), "the page to reconnect", timeout=30)
        # The click reached the server before it hung, so it may have been made after all:
        # the page shows what the server holds, and its next click works.
        shop.wait_for(lambda: shop.quantity("eggs") == server.cart(shop.cart_id)["items"][0]["quantity"],
                      "the page to show the server's quantity")
        before = shop.quantity("eggs")
        shop.press("increment", "eggs")
        shop.wait_for(lambda: shop.quantity("eggs") == before + 1 and shop.refusal("eggs") == "", "a click after")
        assert server.cart(shop.cart_id)["items"][0]["quantity"] == before + 1

        # A checkout the shop stopped answering ends at the first silence, and is not sent
        # again to wait once more; the order it placed after all is not said to come from
        # elsewhere.
        shop.open_cart()
        refusal = shop.find("#cart-refusal")
        with held(server, settle=0):
            started = time.monotonic()
            shop.find("#checkout").click()
            shop.wait_for(lambda: "may still be done" in refusal.text, "the checkout's refusal", timeout=10)
            assert time.monotonic() - started < 8
        shop.wait_for(lambda: not banner.is_displayed(), "the page to reconnect", timeout=30)
        confirmation = shop.find(hooked("order-confirmation"))
        shop.wait_for(lambda: confirmation.text.startswith("Order #"), "the order said")
        assert "was placed from this cart:" in confirmation.text, confirmation.text
        assert len(server.orders(shop.cart_id)) == 1
        shop.close_cart()

        # A page shown again after it was hidden knows the interval: a hang is told as soon.
        shop_tab = browser.current_window_handle
        browser.switch_to.new_window("tab")
        with held(server, settle=0):
            browser.close()
            browser.switch_to.window(shop_tab)
            started = time.monotonic()
            shop.wait_for(banner.is_displayed, "the page to say the shop went silent", timeout=10)
            assert time.monotonic() - started < 8
        shop.wait_for(lambda: not banner.is_displayed(), "the page to reconnect", timeout=30)


def stored_cart(driver):
    """The cart ID the page keeps in this browser's storage."""
    return driver.execute_script("return localStorage.getItem('cart.id')")


def set_cart_version(server, cart_id, version):
    """Writes `version` into the cart's row straight into the store, past its checks: a
    negative one is a cart the service cannot read (500 `store_damaged`)."""
    write_directly(server, ("UPDATE carts SET version = ? WHERE id = ?", (version, cart_id)))


def test_a_cart_the_store_cannot_read_is_kept_and_shown_once_the_store_is_repaired(browser, server):
    shop = Shop(browser, server).open()
    shop.press("add", "eggs")
    shop.wait_for(lambda: shop.quantity("eggs") == 1, "the add")
    cart_id = shop.cart_id
    assert stored_cart(browser) == cart_id
    set_cart_version(server, cart_id, -3)
    try:
        status, body = server.api("GET", f"/v1/carts/{cart_id}")
        assert (status, body["error"]["code"]) == (500, "store_damaged"), body
        # Reloaded with the cart sheet open: the sheet opens again over the page.
        shop.open_cart()
        browser.refresh()
        error = shop.find("#page-error")
        shop.wait_for(lambda: error.is_displayed() and "cannot open your cart right now" in error.text,
                      "the page to say it cannot open the cart")
        # In the shopper's words, and the cart is neither replaced nor forgotten.
        assert "store" not in error.text, error.text
        assert shop.cart_id == "" and stored_cart(browser) == cart_id
        # The sheet, which covers the banner, says so too, rather than showing an empty cart.
        pending = shop.find("#cart-pending")
        shop.wait_for(lambda: pending.is_displayed() and "cannot open your cart right now" in pending.text,
                      "the sheet to say it cannot open the cart")
        assert not shop.find("#cart-empty").is_displayed()
        assert shop.find("#cart-title").text == "Cart"
    finally:
        set_cart_version(server, cart_id, 1)
    # The page tries again by itself, and shows the cart it had once the store can read it.
    shop.wait_for(lambda: shop.cart_id == cart_id and shop.lines() == {"eggs": 1}, "the cart it had", timeout=30)
    assert not pending.is_displayed()
    shop.close_cart()
    assert shop.quantity("eggs") == 1
    shop.wait_for(lambda: not error.is_displayed(), "the words to go")
    assert stored_cart(browser) == cart_id
    shop.in_step("the cart once the store is repaired")
    shop.press("increment", "eggs")
    shop.wait_for(lambda: shop.quantity("eggs") == 2 and server.cart(cart_id)["totalItems"] == 2, "a click after")


def test_a_stored_cart_the_server_does_not_recognise_is_replaced_and_said(browser, server):
    # The shape of a minted ID, but not minted here: the server answers 401.
    unknown = "shop_" + "0" * 64
    browser.get(server.url + "/")
    browser.execute_script("localStorage.setItem('cart.id', arguments[0])", unknown)
    shop = Shop(browser, server).open()
    notice = shop.find("#page-notice")
    shop.wait_for(lambda: "could not be found" in notice.text, "the page to say the cart was not found")
    assert "minted" not in notice.text and "Bearer" not in notice.text, notice.text
    assert shop.cart_id not in ("", unknown) and stored_cart(browser) == shop.cart_id


@contextmanager
def fresh_store(server):
    """The server restarted, on its port, on a new store with the demo's catalog: a store with
    a secret of its own, so it does not recognise the carts minted before. Then back on its
    own store."""
    server.stop()
    own = server.db
    server.db = server.directory / f"fresh-{time.monotonic_ns()}.sqlite3"
    try:
        server.cli("demo")
        server.start()
        yield
    finally:
        server.stop()
        server.db = own
        server.start()


def test_a_cart_the_restarted_server_no_longer_recognises_is_replaced_and_the_new_one_followed(browser, server):
    shop = Shop(browser, server).open()
    shop.press("add", "eggs")
    shop.wait_for(lambda: shop.quantity("eggs") == 1, "the add")
    earlier = shop.cart_id
    with fresh_store(server):
        notice = shop.find("#page-notice")
        shop.wait_for(lambda: shop.cart_id not in ("", earlier) and "could not be found" in notice.text,
                      "a new cart, said in words", timeout=30)
        new = shop.cart_id
        assert stored_cart(browser) == new
        assert shop.badge() == 0 and shop.quantity("eggs") == 0
        banner = shop.find("#connection")
        shop.wait_for(lambda: not banner.is_displayed(), "the new cart's stream to open")
        assert not shop.find("#page-error").is_displayed()
        server.cli("add", "apple", cart=new)
        shop.wait_for(lambda: shop.quantity("apple") == 1, "a change to the new cart to arrive live")
        shop.in_step("the new cart")


def test_a_change_refused_for_a_cart_the_server_no_longer_recognises_starts_a_new_cart(browser, server):
    shop = Shop(browser, server).open()
    shop.press("add", "eggs")
    shop.wait_for(lambda: shop.quantity("eggs") == 1, "the add")
    earlier = shop.cart_id
    # The browser holds back the cart's stream once it drops, so the click, not the stream,
    # is what meets the restarted server first.
    browser.execute_cdp_cmd("Fetch.enable", {"patterns": [{"urlPattern": f"*/v1/carts/{earlier}/events*"}]})
    try:
        with fresh_store(server):
            shop.press("increment", "eggs")
            notice = shop.find("#page-notice")
            shop.wait_for(lambda: shop.cart_id not in ("", earlier) and "could not be found" in notice.text,
                          "a new cart, said in words")
            new = shop.cart_id
            assert stored_cart(browser) == new
            assert shop.refusal("eggs") == "" and shop.quantity("eggs") == 0
            assert "minted" not in browser.find_element(By.TAG_NAME, "body").text
            server.cli("add", "apple", cart=new)
            shop.wait_for(lambda: shop.quantity("apple") == 1, "a change to the new cart to arrive live")
    finally:
        browser.execute_cdp_cmd("Fetch.disable", {})


def test_keyboard_alone_adds_and_checks_out(browser, server):
    shop = Shop(browser, server).open(server.mint())
    browser.find_element(By.TAG_NAME, "body").click()
    add = tab_to(browser, hooked("product-row", "chocolate") + " " + hooked("add"))
    assert add.accessible_name == "Add Dark chocolate 70% to the cart"
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    shop.wait_for(lambda: shop.quantity("chocolate") == 1, "Enter on Add")
    # Focus moved to + as Add turned into the stepper.
    assert focused(browser) == shop.find(hooked("increment"), shop.row("chocolate"))
    ActionChains(browser).send_keys(Keys.SPACE).perform()
    shop.wait_for(lambda: shop.quantity("chocolate") == 2, "Space on +")
    # The stepper's name tells a screen reader how many units the press left.
    assert shop.find(".stepper", shop.row("chocolate")).get_attribute("aria-label") == "Dark chocolate 70% in the cart: 2\u00a0items"

    tab_to(browser, hooked("cart-open"), backwards=True)
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    shop.wait_for(lambda: shop.find("#cart").is_displayed(), "Enter to open the cart")
    tab_to(browser, hooked("checkout"))
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    confirmation = shop.find(hooked("order-confirmation"))
    shop.wait_for(confirmation.is_displayed, "the order confirmation")
    order = server.orders(shop.cart_id)[0]
    assert confirmation.text.replace("\u00a0", " ") == (
        f"Order #{order['number']} placed: {order['totalItems']} items, {shown(order['total'], 'USD')}")

    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    shop.wait_for(lambda: not shop.find("#cart").is_displayed(), "Escape to close the cart")
    assert focused(browser) == shop.find(hooked("cart-open"))


def test_focus_stays_on_plus_when_it_goes_off_at_the_stock_and_another_press_does_nothing(browser, server):
    server.cli("products", "add", "caviar", "--name", "Caviar tin", "--price", "45.00", "--stock", "1")
    shop = Shop(browser, server).open(server.mint())
    shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
    shop.wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, hooked("product-row", "caviar")), "the new product")
    browser.find_element(By.TAG_NAME, "body").click()
    tab_to(browser, hooked("product-row", "caviar") + " " + hooked("add"))
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    shop.wait_for(lambda: shop.quantity("caviar") == 1, "Enter on Add")
    row = shop.row("caviar")
    shop.wait_for(lambda: not offered(shop.find(hooked("increment"), row)), "+ off at the only unit")
    # Add became the stepper and its + went off at once: the focus is on +, not the page, and
    # pressing Enter again adds nothing and takes nothing out.
    assert focused(browser) == shop.find(hooked("increment"), row)
    assert shop.find(".stock", row).text == "The last one is in your cart"
    ActionChains(browser).send_keys(Keys.ENTER).send_keys(Keys.ENTER).perform()
    time.sleep(1)
    assert shop.quantity("caviar") == 1 and server.cart(shop.cart_id)["totalItems"] == 1
    assert focused(browser) == shop.find(hooked("increment"), row)
    server.cli("products", "update", "caviar", "--stock", "0")
    server.cli("add", "apple", cart=shop.cart_id)
    shop.wait_for(lambda: shop.find(".stock", row).text == "Out of stock: take 1 out", "the row to say none is left")


def test_focus_stays_in_place_when_a_line_or_a_row_goes(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1), ("bread", 1), ("milk", 1)]))
    shop.open_cart()
    shop.wait_for(lambda: list(shop.lines()) == ["apple", "bread", "milk"], "the three lines")
    delete = lambda sku: shop.find(hooked("line-delete"), shop.line(sku))
    field = lambda sku: shop.find(hooked("quantity"), shop.line(sku))
    # Deleting a line by keyboard leaves the focus on the quantity of the line after it, then,
    # at the end of the list, of the line before it, then on Done: never on a control that
    # would take another line with the next key press.
    delete("bread").send_keys(Keys.ENTER)
    shop.wait_for(lambda: list(shop.lines()) == ["apple", "milk"], "bread to go")
    shop.wait_for(lambda: focused(browser) == field("milk"), "the focus on milk's quantity")
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    delete("milk").send_keys(Keys.ENTER)
    shop.wait_for(lambda: list(shop.lines()) == ["apple"], "milk to go")
    shop.wait_for(lambda: focused(browser) == field("apple"), "the focus on apple's quantity")
    # − at one unit takes the line out too, and hands the focus on the same way.
    shop.find(hooked("decrement"), shop.line("apple")).send_keys(Keys.ENTER)
    shop.wait_for(lambda: shop.lines() == {}, "the last line to go")
    shop.wait_for(lambda: focused(browser) == shop.find("#cart-done"), "the focus on Done")
    assert server.cart(shop.cart_id)["totalItems"] == 0
    shop.close_cart()

    # A product row that goes (the product is no longer for sale) hands the focus to the
    # row that takes its place.
    server.cli("products", "add", "medlar", "--name", "Medlar jelly", "--price", "4.50")
    try:
        shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
        shop.wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, hooked("product-row", "medlar")), "the new product")
        # The nearest row after it that can take the focus: a sold-out row's Add cannot.
        rows = [row.get_attribute("data-sku") for row in browser.find_elements(By.CSS_SELECTOR, hooked("product-row"))]
        after = next(sku for sku in rows[rows.index("medlar") + 1:]
                     if shop.find(hooked("add"), shop.row(sku)).is_enabled())
        browser.execute_script("arguments[0].focus()", shop.find(hooked("add"), shop.row("medlar")))
        server.cli("products", "update", "medlar", "--inactive")
        shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
        shop.wait_for(lambda: not browser.find_elements(By.CSS_SELECTOR, hooked("product-row", "medlar")), "the row to go")
        shop.wait_for(lambda: focused(browser) == shop.find(hooked("add"), shop.row(after)), f"the focus on {after}'s Add")
    finally:
        # Off sale whatever happened, so that no other test sees it.
        server.cli("products", "update", "medlar", "--inactive")


def test_back_closes_the_cart_sheet_and_forward_opens_it(browser, server):
    shop = Shop(browser, server).open(server.mint([("tea", 1)]))
    address = browser.current_url
    shop.open_cart()
    browser.back()
    shop.wait_for(lambda: not shop.find("#cart").is_displayed(), "Back to close the sheet")
    assert browser.current_url == address and shop.badge() == 1
    assert focused(browser) == shop.find(hooked("cart-open"))
    browser.forward()
    shop.wait_for(lambda: shop.find("#cart").is_displayed(), "Forward to open it again")
    # Done closes it and takes its history entry along: Back then leaves the sheet closed
    # and goes where it went before the sheet was opened.
    shop.close_cart()
    in_sheet_entry = "return Boolean(history.state && history.state.sheet)"
    shop.wait_for(lambda: not browser.execute_script(in_sheet_entry), "Done to take the sheet's entry")
    # Opened again at once after Done, before the sheet's close has been handled, and again
    # after it has been handled but before its entry has gone: the sheet stays open on one
    # entry, and Done then leaves it closed on the entry it was opened from.
    shop.open_cart()
    length = browser.execute_script("return history.length")
    for reopen in (
        "done.click(); open.click(); setTimeout(settled, 200);",
        "sheet.addEventListener('close', () => { open.click(); setTimeout(settled, 200); },"
        " { once: true }); done.click();",
    ):
        browser.execute_async_script(
            "const settled = arguments[arguments.length - 1];"
            "const [sheet, done, open] = ['cart', 'cart-done', 'cart-open']"
            ".map((id) => document.getElementById(id));" + reopen)
        shop.wait_for(lambda: browser.execute_script(in_sheet_entry), "the sheet opened again to have an entry")
        assert shop.find("#cart").is_displayed()
        assert browser.execute_script("return history.length") == length
    shop.close_cart()
    shop.wait_for(lambda: not browser.execute_script(in_sheet_entry), "Done to take the entry again")
    browser.execute_async_script("setTimeout(arguments[0], 200)")
    assert not shop.find("#cart").is_displayed()
    shop.press("increment", "tea")
    shop.wait_for(lambda: shop.quantity("tea") == 2, "the shop to work on")
    # Reloaded with the sheet open, the page opens it again: its entry still means the sheet.
    shop.open_cart()
    browser.refresh()
    shop.wait_for(lambda: shop.find("#cart").is_displayed() and shop.lines() == {"tea": 2},
                  "the sheet open again after the reload, with its line")
    browser.back()
    shop.wait_for(lambda: not shop.find("#cart").is_displayed(), "Back to close it")
    # Back while the sheet asks whether to clear the cart answers no and closes both.
    shop.open_cart()
    shop.find(hooked("clear-cart")).click()
    shop.wait_for(lambda: shop.find("#confirm-clear").is_displayed(), "the question")
    browser.back()
    shop.wait_for(lambda: not shop.find("#cart").is_displayed() and not shop.find("#confirm-clear").is_displayed(),
                  "Back to close the question and the sheet")
    assert focused(browser) == shop.find(hooked("cart-open"))
    assert shop.badge() == 2


def test_an_order_another_process_places_at_once_shows_in_the_history(browser, server):
    shop = Shop(browser, server).open(server.mint())
    # The line and its checkout can come between two events: the page sees only an empty
    # cart at a new version.
    server.cli("add", "butter", cart=shop.cart_id)
    server.cli("checkout", cart=shop.cart_id)
    number = server.orders(shop.cart_id)[0]["number"]
    shop.wait_for(lambda: [item.get_attribute("data-number") for item in
                           browser.find_elements(By.CSS_SELECTOR, "#order-list > *")] == [str(number)],
                  "the order in the history")


def test_a_refusal_from_the_server_stays_when_the_connection_comes_back(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1)])).settled()
    try:
        # The page does not know of the lower cap, so it sends the add, which the server refuses.
        server.cli("db", "init", "--max-lines", "1")
        shop.press("add", "bread")
        shop.wait_for(lambda: "at most 1 line" in shop.refusal("bread"), "the lines cap's refusal")
        server.stop()
        banner = shop.find("#connection")
        shop.wait_for(banner.is_displayed, "the page to say it lost the connection")
        server.start()
        shop.wait_for(lambda: not banner.is_displayed(), "the page to reconnect", timeout=30)
        assert "at most 1 line" in shop.refusal("bread")
    finally:
        server.cli("db", "init", "--max-lines", "100")


def test_plus_is_not_offered_at_the_per_line_cap(browser, server):
    shop = Shop(browser, server).open(server.mint([("milk", 2)]))
    try:
        server.cli("db", "init", "--max-line-quantity", "2")
        shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
        row = shop.row("milk")
        shop.wait_for(lambda: not offered(shop.find(hooked("increment"), row)), "+ off at the cap")
        # The row says why, as it does at the stock.
        assert shop.find(".stock", row).text == "2 of one product is the most a cart can hold"
        shop.open_cart()
        plus = shop.find(hooked("increment"), shop.line("milk"))
        assert not offered(plus)
        # The line in the sheet says so too, and that note describes its + that is off.
        note = shop.find(".stock", shop.line("milk"))
        assert note.text == "2 of one product is the most a cart can hold"
        assert plus.get_attribute("aria-describedby") == note.get_attribute("id")
        shop.press("decrement", "milk", within="cart-line")
        shop.wait_for(lambda: offered(shop.find(hooked("increment"), shop.line("milk"))), "+ back below the cap")
        assert shop.find(hooked("increment"), shop.line("milk")).get_attribute("aria-describedby") is None
        assert not shop.find(".stock", shop.line("milk")).is_displayed()
        shop.close_cart()
    finally:
        server.cli("db", "init", "--max-line-quantity", "99")


def test_a_page_returned_to_with_back_stays_live(browser, server):
    # The page closes its stream when left (a page kept for Back would hold one of the six
    # connections a browser allows a site) and opens it again when shown.
    first, second = server.mint(), server.mint()
    shop = Shop(browser, server).open(first)
    browser.execute_script("window.keptForBack = true")
    Shop(browser, server).open(second)
    browser.back()
    shop.wait_for(lambda: shop.cart_id == first, "Back to the first cart's page")
    assert browser.execute_script("return window.keptForBack === true"), "the page came from the back/forward cache"
    server.cli("add", "milk", "2", cart=first)
    shop.wait_for(lambda: shop.quantity("milk") == 2 and shop.badge() == 2, "a change on it to arrive live")
    shop.in_step("after Back")
    shop.press("increment", "milk")
    shop.wait_for(lambda: shop.quantity("milk") == 3, "a click after Back")


def test_a_cart_address_that_cannot_be_opened_is_refused_in_words_and_the_shop_goes_on(browser, server):
    browser.get(server.url + "/?cart=alice")
    shop = Shop(browser, server)
    error = shop.find("#page-notice")
    wait_until(lambda: error.is_displayed() and "cannot be opened" in error.text, message="the refusal")
    # In the shopper's words: nothing of the API's message about tokens.
    assert "Bearer" not in error.text and "minted" not in error.text, error.text
    # The catalog and a cart of this browser's own are there, and the address names no cart.
    shop.wait_for(lambda: shop.cart_id.startswith("shop_") and shop.row("apple"), "the shop with its own cart")
    assert "cart=" not in browser.current_url
    shop.press("add", "apple")
    shop.wait_for(lambda: shop.quantity("apple") == 1, "an add on the own cart")
    assert server.cart(shop.cart_id)["totalItems"] == 1
    # Once the own cart has changed, the notice about the address has served its purpose.
    shop.wait_for(lambda: not error.is_displayed(), "the notice to go")


def own_cart_with_tea(browser, server):
    """Opens the shop on this browser's own cart, puts one tea in it, and answers its ID."""
    own = Shop(browser, server).open()
    own.press("add", "tea")
    own.wait_for(lambda: own.quantity("tea") == 1, "tea in the browser's own cart")
    return own.cart_id


def follow_link(browser, server, cart_id):
    """Opens the shop at a link to `cart_id` and answers the shop whose page it is."""
    browser.get(server.url + "/?cart=" + cart_id)
    return Shop(browser, server)


def test_a_cart_link_asks_before_moving_this_browsers_items_into_the_shared_cart(browser, server):
    earlier = own_cart_with_tea(browser, server)
    linked = server.mint([("milk", 2)])
    shop = follow_link(browser, server, linked)
    ask = shop.find("#confirm-link")
    shop.wait_for(ask.is_displayed, "the question about the shared cart")
    assert ask.get_attribute("role") == "alertdialog"
    # Keeping is the safe answer, and where focus starts.
    assert focused(browser) == shop.find("#link-keep")
    text = shop.find("#link-text").text
    # (WebDriver's text has the page's no-break spaces as spaces.)
    assert "holding 2 items" in text and "the 1 item in your cart" in text and "Whoever has the link" in text, text
    # Nothing has moved while the shopper decides.
    assert server.cart(earlier)["totalItems"] == 1 and server.cart(linked)["totalItems"] == 2
    shop.press("link-open")
    shop.wait_for(lambda: shop.cart_id == linked and shop.quantity("tea") == 1 and shop.quantity("milk") == 2,
                  "the linked cart with the earlier cart's tea in it")
    notice = shop.find("#page-notice")
    # A notice, not an error: in the notice banner, with the error banner empty.
    assert not shop.find("#page-error").is_displayed()
    assert notice.is_displayed() and "1 item from your cart was added to this shared one" in notice.text, notice.text
    assert "whoever has the link can see and change it" in notice.text, notice.text
    assert server.cart(earlier)["totalItems"] == 0
    assert "cart=" not in browser.current_url
    # With nothing of the shopper's at stake there is no question, only the notice.
    server.cli("clear", cart=linked)
    again = server.mint([("eggs", 1)])
    shop = follow_link(browser, server, again)
    shop.wait_for(lambda: shop.cart_id == again and shop.quantity("eggs") == 1, "the second linked cart")
    assert shop.quantity("milk") == 0 and not shop.find("#confirm-link").is_displayed()
    assert "whoever has the link" in shop.find("#page-notice").text


def test_items_a_shared_cart_cannot_take_are_named_when_it_is_opened(browser, server):
    server.cli("products", "add", "loquat", "--name", "Loquat jelly", "--price", "3.00", "--stock", "3")
    own = Shop(browser, server).open()
    own.wait_for(lambda: own.cart_id.startswith("shop_"), "the browser's own cart")
    earlier = own.cart_id
    server.cli("add", "loquat", "2", cart=earlier)
    server.cli("add", "tea", cart=earlier)
    linked = server.mint([("loquat", 2)])
    shop = follow_link(browser, server, linked)
    shop.wait_for(shop.find("#confirm-link").is_displayed, "the question about the shared cart")
    shop.press("link-open")
    shop.wait_for(lambda: shop.cart_id == linked and shop.quantity("loquat") == 3, "the merged cart")
    notice = shop.find("#page-notice").text
    assert ("2 items of the 3 items from your cart were added to this shared one; "
            "1 item could not be: Loquat jelly (only 3 in stock).") in notice, notice
    assert server.cart(linked)["totalItems"] == 4


def test_items_added_elsewhere_while_the_shopper_is_asked_are_moved_and_counted(browser, server):
    earlier = own_cart_with_tea(browser, server)
    linked = server.mint([("milk", 1)])
    shop = follow_link(browser, server, linked)
    shop.wait_for(shop.find("#confirm-link").is_displayed, "the question about the shared cart")
    server.cli("add", "eggs", "2", cart=earlier)
    shop.press("link-open")
    shop.wait_for(lambda: shop.cart_id == linked and shop.quantity("eggs") == 2 and shop.quantity("tea") == 1,
                  "the shared cart with everything the earlier cart held")
    notice = shop.find("#page-notice").text
    assert "3 items from your cart were added to this shared one" in notice, notice


def test_a_link_to_a_cart_never_used_does_not_take_the_shoppers_items(browser, server):
    earlier = own_cart_with_tea(browser, server)
    unused = server.mint()
    shop = follow_link(browser, server, unused)
    notice = shop.find("#page-notice")
    shop.wait_for(lambda: "was never used" in notice.text and shop.cart_id == earlier and shop.row("tea"),
                  "the own cart, and why")
    assert "so this is your own cart" in notice.text, notice.text
    assert not shop.find("#confirm-link").is_displayed() and shop.quantity("tea") == 1
    assert "cart=" not in browser.current_url
    assert server.cart(unused)["totalItems"] == 0 and server.cart(earlier)["totalItems"] == 1


def test_a_cart_from_a_link_keeps_its_items_when_another_link_is_opened(browser, server):
    earlier = own_cart_with_tea(browser, server)
    first = server.mint([("milk", 2)])
    shop = follow_link(browser, server, first)
    shop.wait_for(shop.find("#confirm-link").is_displayed, "the question about the first link")
    shop.press("link-open")
    shop.wait_for(lambda: shop.cart_id == first and shop.quantity("tea") == 1, "the first shared cart with the tea")
    assert server.cart(earlier)["totalItems"] == 0
    second = server.mint([("eggs", 1)])
    shop = follow_link(browser, server, second)
    ask = shop.find("#confirm-link")
    shop.wait_for(ask.is_displayed, "the question about the second link")
    text = shop.find("#link-text").text
    assert "came from another link; its 3 items stay in it" in text, text
    shop.press("link-open")
    shop.wait_for(lambda: shop.cart_id == second and shop.quantity("eggs") == 1, "the second shared cart")
    # Someone else's cart is not emptied by this browser moving on.
    assert shop.quantity("milk") == 0 and shop.quantity("tea") == 0
    assert server.cart(first)["totalItems"] == 3
    assert "left as it was" in shop.find("#page-notice").text


def test_a_shopper_who_keeps_their_cart_leaves_the_shared_cart_alone(browser, server):
    earlier = own_cart_with_tea(browser, server)
    linked = server.mint([("milk", 2)])
    for answer in ("the Keep button", "Escape"):
        shop = follow_link(browser, server, linked)
        ask = shop.find("#confirm-link")
        shop.wait_for(ask.is_displayed, "the question about the shared cart")
        if answer == "Escape":
            ActionChains(browser).send_keys(Keys.ESCAPE).perform()
        else:
            shop.press("link-keep")
        shop.wait_for(lambda: shop.cart_id == earlier and shop.quantity("tea") == 1 and shop.row("milk"),
                      f"the browser's own cart after {answer}")
        assert shop.quantity("milk") == 0
        assert "You kept your cart" in shop.find("#page-notice").text
        assert "cart=" not in browser.current_url
        assert server.cart(linked)["totalItems"] == 2 and server.cart(earlier)["totalItems"] == 1
    # The link was not remembered: the page opens on the shopper's own cart again.
    reopened = Shop(browser, server).open()
    assert reopened.cart_id == earlier


def test_a_shopper_in_a_shared_cart_can_go_back_to_their_own_cart_and_its_orders(browser, server):
    earlier = own_cart_with_tea(browser, server)
    server.cli("checkout", cart=earlier)
    numbers = [order["number"] for order in server.orders(earlier)]
    server.cli("add", "tea", cart=earlier)
    # Through two links: the way back is to the shopper's own cart, not the first link's.
    for linked in (server.mint([("milk", 2)]), server.mint([("eggs", 1)])):
        shop = follow_link(browser, server, linked)
        shop.wait_for(shop.find("#confirm-link").is_displayed, "the question about the shared cart")
        shop.press("link-open")
        shop.wait_for(lambda: shop.cart_id == linked, "the shared cart")
        bar = shop.find("#shared-bar")
        assert bar.is_displayed() and "shared by a link" in bar.text, bar.text
        assert shop.find(hooked("own-cart")).text == "Back to My Cart"
    shop.press("own-cart")
    shop.wait_for(lambda: shop.cart_id == earlier and shop.row("tea"), "the shopper's own cart")
    shop.wait_for(lambda: [order.get_attribute("data-number") for order in
                           browser.find_elements(By.CSS_SELECTOR, hooked("order"))] == [str(n) for n in numbers],
                  "the own cart's order history")
    assert not shop.find("#shared-bar").is_displayed()
    # Its tea went into the first shared cart, which keeps it for whoever has that link.
    assert shop.quantity("tea") == 0
    # The own cart is this browser's cart again, after a reload too.
    assert Shop(browser, server).open().cart_id == earlier


def test_an_address_that_cannot_be_opened_in_a_shared_cart_says_the_shared_cart_stays(browser, server):
    Shop(browser, server).open()
    browser.execute_script("localStorage.clear()")
    linked = server.mint([("milk", 1)])
    shop = follow_link(browser, server, linked)
    shop.wait_for(lambda: shop.cart_id == linked, "the shared cart")
    shop = follow_link(browser, server, "alice")
    notice = shop.find("#page-notice")
    shop.wait_for(lambda: "cannot be opened" in notice.text and shop.cart_id == linked, "the refusal")
    assert "so this is the shared cart you had open" in notice.text, notice.text


def test_share_shows_the_link_to_this_cart_which_opens_it_elsewhere(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 2)]))
    shop.open_cart()
    shop.press("share-cart")
    link = shop.find(hooked("share-link"))
    shop.wait_for(lambda: link.is_displayed() and focused(browser) == link, "the link, focused")
    assert link.get_attribute("value") == f"{server.url}/?cart={shop.cart_id}"
    words = shop.find("#share-words").text
    assert words.startswith(("Link copied.", "Copy this link.")) and "Whoever has this link can see and change" in words
    assert browser.execute_script("return window.getSelection().toString() || "
                                  "document.activeElement.value.slice(document.activeElement.selectionStart, "
                                  "document.activeElement.selectionEnd)") == link.get_attribute("value")
    # Closing the sheet puts the link away; an empty cart offers no Share.
    shop.close_cart()
    shop.open_cart()
    assert not link.is_displayed()
    server.cli("clear", cart=shop.cart_id)
    shop.wait_for(lambda: not shop.find(hooked("share-cart")).is_displayed(), "Share to go with the items")
    shop.close_cart()


def test_a_shopper_who_came_by_a_link_can_start_a_cart_of_their_own(browser, server):
    Shop(browser, server).open()
    browser.execute_script("localStorage.clear()")
    linked = server.mint([("milk", 1)])
    shop = follow_link(browser, server, linked)
    shop.wait_for(lambda: shop.cart_id == linked and shop.quantity("milk") == 1, "the shared cart")
    button = shop.find(hooked("own-cart"))
    assert button.text == "Start My Own Cart"
    button.click()
    shop.wait_for(lambda: shop.cart_id.startswith("shop_") and shop.cart_id != linked and shop.row("milk"),
                  "a new cart of the shopper's own")
    assert shop.quantity("milk") == 0 and not shop.find("#shared-bar").is_displayed()
    assert server.cart(linked)["totalItems"] == 1


def test_a_count_above_99_is_shown_as_99_plus_on_the_badge(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 60), ("banana", 50)]))
    shop.wait_for(lambda: shop.badge() == "99+", "the badge to read 99+")
    assert browser.find_element(By.ID, "badge-words").get_attribute("textContent") == "110\u00a0items"
    shop.in_step("with 110 items")


def test_products_are_listed_by_name(browser, server):
    # SKU order would put "Sourdough bread" (bread) between Banana and "Salted butter" (butter).
    shop = Shop(browser, server).open(server.mint())
    names = [row.find_element(By.CSS_SELECTOR, ".product-name").text
             for row in browser.find_elements(By.CSS_SELECTOR, hooked("product-row"))]
    assert len(names) > 5
    assert names == sorted(names, key=str.casefold), names


def test_an_empty_cart_address_is_no_error(browser, server):
    browser.get(server.url + "/?cart=")
    shop = Shop(browser, server)
    shop.wait_for(lambda: shop.cart_id.startswith("shop_") and shop.row("apple"), "the shop")
    assert not shop.find("#page-error").is_displayed() and not shop.find("#page-notice").is_displayed()


def test_orders_are_newest_first_and_paged(browser, server):
    cart_id = server.mint()
    numbers = []
    for index in range(7):
        status, body = server.api("POST", f"/v1/carts/{cart_id}/items", {"sku": "banana", "quantity": index + 1})
        assert status == 200, body
        status, body = server.api("POST", f"/v1/carts/{cart_id}/checkout", headers={"Idempotency-Key": f"paged-{cart_id}-{index}"})
        assert status == 201, body
        numbers.append(body["order"]["number"])
    shop = Shop(browser, server).open(cart_id)

    def shown():
        return [int(item.get_attribute("data-number"))
                for item in browser.find_elements(By.CSS_SELECTOR, '[data-testid="order"]')]

    shop.wait_for(lambda: shown() == numbers[::-1][:5], "the newest five orders")
    older = shop.find("#older-orders")
    assert older.is_displayed()
    older.click()
    shop.wait_for(lambda: shown() == numbers[::-1], "all seven, newest first")
    assert not older.is_displayed()
    # The button is gone: focus is on the first of the orders it showed, not lost.
    sixth = browser.find_element(By.CSS_SELECTOR, f'[data-testid="order"][data-number="{numbers[1]}"] summary')
    shop.wait_for(lambda: focused(browser) == sixth, "focus on the first older order")


def test_amounts_show_the_currency_symbol_in_every_view(browser, server):
    cart_id = server.mint([("apple", 2)])
    status, body = server.api("POST", f"/v1/carts/{cart_id}/checkout", headers={"Idempotency-Key": f"symbol-{cart_id}"})
    assert status == 201, body
    status, body = server.api("POST", f"/v1/carts/{cart_id}/items", {"sku": "coffee", "quantity": 1})
    assert status == 200, body
    shop = Shop(browser, server).open(cart_id)
    order = shop.wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, hooked("order")), "the order in the history")[0]

    def text(selector, root):
        return shop.find(selector, root).get_attribute("textContent")

    assert text(".price", shop.row("apple")) == "$1.29"
    assert text(".price", shop.row("coffee")) == "$18.99"
    shop.open_cart()
    assert text(".unit-price", shop.line("coffee")) == "$18.99 each"
    assert text(".line-total", shop.line("coffee")) == "$18.99"
    assert shop.total() == "$18.99"
    assert text(".order-total", order) == "$2.58"
    assert text(".order-lines li span:last-child", order) == "$2.58"

    # A store has one currency, so the others are asked of the page's own formatting.
    formatted = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import("/shop/api.js").then(({ money }) => done([
            money("1.29", "EUR"), money("1.29", "GBP"), money("1234.50", "USD"), money("129", "JPY"),
            money("12.990", "KWD"), money("9900000.000", "KWD"), money("1234.29", "XYZ"), money("1.29", "not a code"),
            money("92233720368547758.07", "USD"),
        ]), (error) => done(String(error)));
    """)
    # A currency without a symbol is grouped as the others are.
    assert formatted == ["€1.29", "£1.29", "$1,234.50", "¥129", "12.990 KWD", "9,900,000.000 KWD", "1,234.29 XYZ",
                         "1.29 not a code", "$92,233,720,368,547,758.07"]


def test_screenshots_at_375_and_1280_pixels(browser, server, screenshots):
    cart_id = server.mint([("coffee", 1), ("bread", 2)])
    status, body = server.api("POST", f"/v1/carts/{cart_id}/checkout", headers={"Idempotency-Key": f"shots-{cart_id}"})
    assert status == 201, body
    for sku, quantity in (("apple", 3), ("cheese", 1), ("olive-oil", 1)):
        server.api("POST", f"/v1/carts/{cart_id}/items", {"sku": sku, "quantity": quantity})
    for width, height, scale, mobile in ((1280, 800, 1, False), (375, 812, 2, True)):
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})
        shop = Shop(browser, server).open(cart_id)
        shop.wait_for(lambda: shop.badge() == 5 and browser.find_elements(By.CSS_SELECTOR, '[data-testid="order"]'),
                      "the cart and the history")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width, "no sideways scrolling"
        browser.save_screenshot(str(screenshots / f"shop-{width}.png"))
        shop.open_cart()
        browser.save_screenshot(str(screenshots / f"cart-{width}.png"))
        shop.close_cart()


def test_a_long_unbroken_name_wraps_in_every_view_at_375_pixels(browser, server):
    name = "Supercalifragilisticexpialidocious_unbroken_word_that_goes_on_and_on_for_ever " * 2
    server.cli("products", "add", "long-name", "--name", name.strip(), "--price", "999999.99")
    cart_id = server.mint([("long-name", 4), ("tea", 1)])
    status, body = server.api("POST", f"/v1/carts/{cart_id}/checkout", headers={"Idempotency-Key": f"long-{cart_id}"})
    assert status == 201, body
    server.api("POST", f"/v1/carts/{cart_id}/items", {"sku": "long-name", "quantity": 1})
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 375, "height": 812, "deviceScaleFactor": 2, "mobile": True})
    shop = Shop(browser, server).open(cart_id)
    order = shop.wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, hooked("order")), "the history")[0]
    order.find_element(By.CSS_SELECTOR, "summary").click()
    shop.wait_for(lambda: order.find_element(By.CSS_SELECTOR, ".order-lines li").is_displayed(), "the order's lines")
    # Nothing scrolls sideways, and each amount lies inside its box.
    overflow = browser.execute_script("""
        const inside = (element, box) => {
            const a = element.getBoundingClientRect(), b = box.getBoundingClientRect();
            return a.left >= b.left - 0.5 && a.right <= b.right + 0.5;
        };
        const order = document.querySelector('[data-testid="order"]');
        return {
            page: document.documentElement.scrollWidth,
            orderTotals: [...order.querySelectorAll(".order-lines li > :last-child")].every((total) => inside(total, order)),
            rows: [...document.querySelectorAll('[data-testid="product-row"]')]
                .every((row) => row.scrollWidth <= row.clientWidth),
        };
    """)
    assert overflow == {"page": 375, "orderTotals": True, "rows": True}, overflow
    shop.open_cart()
    assert browser.execute_script(
        "return [document.getElementById('cart'), document.querySelector('#cart .sheet-body')]"
        ".every((element) => element.scrollWidth <= element.clientWidth)")


def test_a_cart_pruned_and_made_again_is_followed_not_frozen(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 3)]))
    shop.wait_for(lambda: shop.badge() == 3, "the three apples")
    # Three days unchanged, then pruned: the cart starts again from version 0.
    write_directly(server, ("UPDATE carts SET updated_at = updated_at - 3 * 86400000 WHERE id = ?", (shop.cart_id,)))
    server.cli("prune", "--older-than", "1")
    shop.wait_for(lambda: shop.badge() == 0, "the pruned cart, empty")
    shop.press("add", "bread")
    shop.wait_for(lambda: shop.badge() == 1 and shop.shows_server_cart(), "the new line on the cart made again")


def test_tabs_in_the_background_leave_room_for_a_seventh(browser, server):
    cart = server.mint()
    Shop(browser, server).open(cart)
    # Each tab opened takes the foreground, so the ones behind it close their streams.
    for _ in range(6):
        browser.switch_to.new_window("tab")
        Shop(browser, server).open(cart)
    assert len(browser.window_handles) == 7
    server.cli("add", "apple", cart=cart)
    shop = Shop(browser, server)
    shop.wait_for(lambda: shop.badge() == 1, "the seventh tab to follow the cart")


def test_focus_stays_in_the_list_when_the_focused_add_sells_out(browser, server):
    server.cli("products", "add", "fig", "--name", "Fig", "--price", "1.10", "--stock", "3")
    shop = Shop(browser, server).open(server.mint())
    add = shop.find(hooked("add"), shop.row("fig"))
    browser.execute_script("arguments[0].focus()", add)
    assert focused(browser) == add
    server.cli("products", "update", "fig", "--stock", "0")
    # A cart event reads the products again.
    server.cli("add", "apple", cart=shop.cart_id)
    shop.wait_for(lambda: not add.is_enabled(), "Add off once the figs are sold out")
    now = focused(browser)
    assert now.tag_name == "button" and now != add, now.get_attribute("outerHTML")


def test_an_older_answer_of_the_order_history_does_not_replace_a_newer_one(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1)]))
    # The next answer of the history is held back until the test lets it go.
    browser.execute_script("""
        window.heldOrders = [];
        const sent = window.fetch;
        window.fetch = async (path, init) => {
          const response = await sent(path, init);
          if (String(path).includes("/orders") && window.heldOrders.length === 0) {
            await new Promise((resolve) => window.heldOrders.push(resolve));
          }
          return response;
        };
    """)
    # Emptied at a new version elsewhere, the page reads its orders: none yet, held back.
    server.cli("clear", cart=shop.cart_id)
    shop.wait_for(lambda: browser.execute_script("return window.heldOrders.length") == 1, "the first read held")
    server.cli("add", "apple", cart=shop.cart_id)
    server.cli("checkout", cart=shop.cart_id)
    shop.wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, hooked("order"))) == 1, "the order, from the later read")
    browser.execute_async_script("window.heldOrders[0](); setTimeout(arguments[0], 300)")
    assert len(browser.find_elements(By.CSS_SELECTOR, hooked("order"))) == 1


def test_an_open_order_stays_open_when_the_history_is_read_again(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1)]))
    server.cli("checkout", cart=shop.cart_id)
    order = shop.wait_for(lambda: shop.find(hooked("order")), "the order in the history")
    summary = shop.find("summary", order)
    summary.click()
    assert shop.find("details", order).get_attribute("open") is not None
    reads = browser.execute_script("return performance.getEntriesByType('resource')"
                                   ".filter((entry) => entry.name.includes('/orders')).length")
    # Emptied at a new version elsewhere: the page reads its orders again.
    server.cli("add", "bread", cart=shop.cart_id)
    server.cli("clear", cart=shop.cart_id)
    shop.wait_for(lambda: browser.execute_script(
        "return performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/orders')).length")
        > reads, "the orders read again")
    assert shop.find(hooked("order")) == order
    assert shop.find("details", order).get_attribute("open") is not None
    assert focused(browser) == summary


def test_a_cart_address_that_was_not_minted_is_not_joined(browser, server):
    # The shop takes only an ID the server mints: a server without an admin token would open
    # `alice`, a cart of the CLI's, and this browser's lines would join it.
    earlier = own_cart_with_tea(browser, server)
    server.cli("add", "milk", cart="alice")
    for address in ("alice", "%20alice", "shop_" + "0" * 63):
        browser.get(server.url + "/?cart=" + address)
        shop = Shop(browser, server)
        notice = shop.find("#page-notice")
        shop.wait_for(lambda: notice.is_displayed() and "cannot be opened" in notice.text, f"the notice for {address}")
        shop.wait_for(lambda: shop.cart_id == earlier and shop.quantity("tea") == 1, "the browser's own cart")
    assert server.cli("--json", "show", cart="alice").count('"sku"') == 1


def test_focus_stays_on_its_control_when_the_list_around_it_changes(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1), ("bread", 1)]))
    add = shop.find(hooked("add"), shop.row("banana"))
    browser.execute_script("arguments[0].focus()", add)
    # A product new to the list puts a row before the focused one.
    server.cli("products", "add", "aaa-jam", "--name", "Aardvark jam", "--price", "2.00")
    try:
        shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
        shop.wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, hooked("product-row", "aaa-jam")), "the new row")
        assert focused(browser) == add, focused(browser).get_attribute("outerHTML")
    finally:
        server.cli("products", "update", "aaa-jam", "--inactive")

    # A line added in another process puts a line beside the focused one in the open sheet.
    shop.open_cart()
    plus = shop.find(hooked("increment"), shop.line("apple"))
    browser.execute_script("arguments[0].focus()", plus)
    server.cli("add", "banana", cart=shop.cart_id)
    shop.wait_for(lambda: list(shop.lines()) == ["apple", "bread", "banana"], "the new line")
    assert focused(browser) == plus, focused(browser).get_attribute("outerHTML")


def test_the_open_sheet_tells_screen_readers_of_the_count_and_total(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1)]))
    shop.open_cart()
    status = shop.find("#cart-status")
    assert status.get_attribute("role") == "status"
    # Inside the modal sheet, where a screen reader still reaches it.
    assert browser.execute_script("return document.getElementById('cart').contains(arguments[0])", status)
    shop.press("increment", "apple", within="cart-line")
    shop.in_step("two apples")
    cart = server.cart(shop.cart_id)
    told = f"Cart: 2\u00a0items, total {shown(cart['subtotal'], cart['currency'])}"
    shop.wait_for(lambda: status.get_attribute("textContent") == told, "the count and total told")
    # A problem that comes while the sheet is open is told too: Checkout goes off with it.
    server.cli("products", "add", "quark", "--name", "Quark", "--price", "1.00", "--stock", "5")
    try:
        server.cli("add", "quark", "2", cart=shop.cart_id)
        server.cli("products", "update", "quark", "--inactive")
        shop.wait_for(lambda: status.get_attribute("textContent").endswith("; 1 problem to fix before checkout"),
                      "the problem told")
    finally:
        server.cli("delete", "quark", cart=shop.cart_id)
        server.cli("products", "delete", "quark")


def test_the_browser_going_offline_and_back_is_said_in_the_banner_and_in_the_sheet(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1)]))
    banner = shop.find("#connection")
    connection = shop.find("#sheet-connection")
    network = {"latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.enable", {})
    try:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, **network})
        shop.wait_for(banner.is_displayed, "the lost connection said")
        # Opened meanwhile, the modal sheet says it too, where a screen reader reaches it.
        shop.open_cart()
        assert connection.get_attribute("textContent") == banner.get_attribute("textContent") != ""
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, **network})
        shop.wait_for(lambda: not banner.is_displayed(), "the connection back")
        assert connection.get_attribute("textContent") == "Connected to the shop again."
        shop.close_cart()
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, **network})
        browser.execute_cdp_cmd("Network.disable", {})
    shop.press("increment", "apple")
    shop.wait_for(lambda: shop.quantity("apple") == 2, "the shop working again")


def test_a_product_gone_or_off_sale_meanwhile_is_refused_in_words_above_the_list(browser, server):
    server.cli("products", "add", "damson", "--name", "Damson cheese", "--price", "3.20")
    server.cli("products", "add", "rowan", "--name", "Rowan jelly", "--price", "2.80")
    try:
        shop = Shop(browser, server).open(server.mint())
        shop.wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, hooked("product-row", "rowan")), "the new rows")
        refusal = shop.find("#products-refusal")
        server.cli("products", "delete", "damson")
        shop.press("add", "damson")
        shop.wait_for(lambda: refusal.is_displayed() and refusal.text == "Damson cheese is no longer sold.",
                      "the refusal in words")
        shop.wait_for(lambda: not browser.find_elements(By.CSS_SELECTOR, hooked("product-row", "damson")), "the row to go")
        server.cli("products", "update", "rowan", "--inactive")
        shop.press("add", "rowan")
        shop.wait_for(lambda: refusal.text == "Rowan jelly is not for sale.", "the refusal for the product off sale")
        # The words above the list are brought into view from the row far down it, once the
        # list is drawn without the row.
        shop.wait_for(lambda: browser.execute_script(
            "const box = arguments[0].getBoundingClientRect(); return box.top >= 0 && box.bottom <= innerHeight", refusal),
            "the refusal in view")
        shop.wait_for(lambda: not browser.find_elements(By.CSS_SELECTOR, hooked("product-row", "rowan")), "the row to go")
        assert refusal.is_displayed(), "the refusal stays once the row has gone"
        # The next change of the cart clears it.
        browser.execute_script("arguments[0].click()", shop.find(hooked("add"), shop.row("apple")))
        shop.wait_for(lambda: not refusal.is_displayed(), "the refusal cleared by the next change")
    finally:
        server.cli("products", "update", "rowan", "--inactive")


def test_the_catalog_reads_as_loading_until_read_and_the_cart_follows_meanwhile(browser, server):
    cart_id = server.mint([("apple", 1)])
    # The products request is held (the browser's Fetch domain pauses it until the test turns
    # that domain off) while the cart loads and shows: an empty list then is not yet an empty
    # catalog.
    browser.execute_cdp_cmd("Fetch.enable", {"patterns": [{"urlPattern": "*/v1/products*"}]})
    try:
        browser.get(server.url + "/?cart=" + cart_id)
        shop = Shop(browser, server)
        wait_until(lambda: shop.cart_id == cart_id, message="the cart to load")
        shop.wait_for(lambda: shop.find(hooked("cart-badge")).get_attribute("textContent") == "1", "the cart shown")
        status = shop.find("#products-status")
        assert status.is_displayed() and status.text == "Loading products…", status.text
        # The cart follows changes made elsewhere while the catalog is still being read.
        server.cli("add", "banana", cart=cart_id)
        shop.wait_for(lambda: shop.find(hooked("cart-badge")).get_attribute("textContent") == "2", "the change shown")
        assert status.text == "Loading products…", status.text
    finally:
        browser.execute_cdp_cmd("Fetch.disable", {})
    shop.wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, hooked("product-row")), "the list once read")
    assert not status.is_displayed()


def test_a_catalog_that_cannot_be_read_says_so_until_it_is_read(browser, server):
    cart_id = server.mint([("apple", 1)])
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/v1/products*"]})
    try:
        browser.get(server.url + "/?cart=" + cart_id)
        shop = Shop(browser, server)
        status = shop.find("#products-status")
        shop.wait_for(lambda: status.text.startswith("The products could not be loaded: "), "the failed read said")
        # Every text the note shows from now on is recorded: a render of the cart must not
        # claim, even for a moment, that nothing is for sale.
        browser.execute_script("""
            window.productNotes = [];
            new MutationObserver(() => window.productNotes.push(arguments[0].textContent))
                .observe(arguments[0], {childList: true, characterData: true, subtree: true});
        """, status)
        # A change of the cart shows, and the list it cannot show is still explained.
        server.api("POST", f"/v1/carts/{cart_id}/items", {"sku": "banana", "quantity": 1})
        shop.wait_for(lambda: shop.find(hooked("cart-badge")).get_attribute("textContent") == "2", "the change shown")
        assert status.text.startswith("The products could not be loaded: "), status.text
        notes = browser.execute_script("return window.productNotes")
        assert all(note.startswith("The products could not be loaded: ") for note in notes), notes
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    # The next change reads the list again.
    server.api("POST", f"/v1/carts/{cart_id}/items", {"sku": "banana", "quantity": 1})
    shop.wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, hooked("product-row")), "the list once read")
    assert not status.is_displayed()
    # A later read that fails keeps the list read before, and says it may be out of date.
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/v1/products*"]})
    try:
        server.api("POST", f"/v1/carts/{cart_id}/items", {"sku": "banana", "quantity": 1})
        shop.wait_for(lambda: status.is_displayed(), "the failed update said")
        assert status.text.startswith("The product list could not be updated: "), status.text
        assert browser.find_elements(By.CSS_SELECTOR, hooked("product-row")), "the list read before is kept"
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})


def test_a_checkout_refused_for_stock_marks_the_line_without_the_event_stream(browser, server):
    server.cli("products", "add", "sloe", "--name", "Sloe gin jam", "--price", "5.00", "--stock", "4")
    # No event reaches the page: it reads the cart only when it asks.
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/events"]})
    try:
        shop = Shop(browser, server).open(server.mint([("sloe", 2)]))
        shop.open_cart()
        server.cli("products", "update", "sloe", "--stock", "1")
        shop.press("checkout")
        shop.wait_for(lambda: shop.find("#cart-refusal").is_displayed(), "the refusal")
        shop.wait_for(lambda: "has-problem" in shop.line("sloe").get_attribute("class"), "the line marked")
        assert shop.find("#checkout").get_attribute("aria-disabled") == "true"
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        server.cli("products", "update", "sloe", "--inactive")


def test_a_price_changed_unseen_is_shown_at_checkout_not_charged(browser, server):
    server.cli("products", "add", "yuzu", "--name", "Yuzu curd", "--price", "4.00")
    # No event reaches the page, so it still shows the old price when the shopper checks out.
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/events"]})
    try:
        cart_id = server.mint([("yuzu", 2)])
        shop = Shop(browser, server).open(cart_id)
        shop.open_cart()
        shop.wait_for(lambda: shop.find("#cart-total").text == "$8.00", "the total at the old price")
        server.cli("products", "update", "yuzu", "--price", "4.50")
        shop.press("checkout")
        refusal = shop.find("#cart-refusal")
        shop.wait_for(refusal.is_displayed, "the refusal")
        assert refusal.text.replace("\u00a0", " ") == (
            "Prices changed: your total is now $9.00. Check your cart, then place the order again."), refusal.text
        shop.wait_for(lambda: shop.find("#cart-total").text == "$9.00", "the new total shown")
        status, body = server.api("GET", f"/v1/carts/{cart_id}/orders")
        assert status == 200 and body["orders"] == [], body
        shop.press("checkout")
        confirmation = shop.find(hooked("order-confirmation"))
        shop.wait_for(confirmation.is_displayed, "the order confirmation")
        assert confirmation.text.replace("\u00a0", " ").endswith("placed: 2 items, $9.00"), confirmation.text
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})


def test_older_orders_shown_stay_when_the_history_is_read_again(browser, server):
    cart_id = server.mint()
    for index in range(6):
        server.api("POST", f"/v1/carts/{cart_id}/items", {"sku": "banana", "quantity": 1})
        status, body = server.api("POST", f"/v1/carts/{cart_id}/checkout", headers={"Idempotency-Key": f"kept-{cart_id}-{index}"})
        assert status == 201, body
    shop = Shop(browser, server).open(cart_id)

    def count():
        return len(browser.find_elements(By.CSS_SELECTOR, '[data-testid="order"]'))

    def numbers():
        return [int(item.get_attribute("data-number"))
                for item in browser.find_elements(By.CSS_SELECTOR, '[data-testid="order"]')]

    shop.wait_for(lambda: count() == 5, "the newest five")
    shop.find("#older-orders").click()
    shop.wait_for(lambda: count() == 6, "all six")
    shown_before = numbers()
    reads = browser.execute_script("return performance.getEntriesByType('resource')"
                                   ".filter((entry) => entry.name.includes('/orders')).length")
    # Emptied at a new version elsewhere: the page reads its orders again, and keeps all six.
    server.cli("add", "apple", cart=cart_id)
    server.cli("clear", cart=cart_id)
    shop.wait_for(lambda: browser.execute_script(
        "return performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/orders')).length")
        > reads, "the orders read again")
    assert numbers() == shown_before
    # A new order comes first; as many orders as were shown stay shown, the oldest behind the button.
    server.cli("add", "apple", cart=cart_id)
    server.cli("checkout", cart=cart_id)
    shop.wait_for(lambda: len(numbers()) == 6 and numbers()[0] not in shown_before and numbers()[1:] == shown_before[:5],
                  "the new order and five of those before")
    assert shop.find("#older-orders").is_displayed()


def test_a_quantity_typed_into_a_line_is_set_and_a_bad_one_is_refused(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1), ("bread", 1)]))
    shop.open_cart()
    field = lambda sku: shop.find(hooked("quantity"), shop.line(sku))
    assert field("apple").get_attribute("aria-label") == "Quantity of " + shop.line("apple").find_element(
        By.CSS_SELECTOR, ".line-name").text

    retype(field("apple"), "12", Keys.ENTER)
    shop.wait_for(lambda: server.cart(shop.cart_id)["items"][0]["quantity"] == 12, "12 apples stored")
    shop.in_step("12 apples")
    assert shop.lines() == {"apple": 12, "bread": 1}

    # Not a number: refused on the line, the field shows the line's quantity again.
    retype(field("bread"), "two", Keys.TAB)
    line_refusal = lambda sku: shop.find(hooked("refusal"), shop.line(sku))
    shop.wait_for(lambda: line_refusal("bread").text == "Type a whole number of units; 0 takes the line out.", "the refusal")
    assert field("bread").get_attribute("value") == "1"
    # Above the per-line cap: refused on the line, and the quantity as it was.
    retype(field("bread"), "5000", Keys.ENTER)
    shop.wait_for(lambda: "99" in line_refusal("bread").text, "the cap's refusal")
    shop.wait_for(lambda: field("bread").get_attribute("value") == "1", "the quantity as it was")
    # Escape undoes the typing and leaves the sheet open.
    retype(field("bread"), "7", Keys.ESCAPE)
    assert field("bread").get_attribute("value") == "1"
    assert shop.find("#cart").is_displayed()
    # 0 takes the line out.
    retype(field("bread"), "0", Keys.ENTER)
    shop.wait_for(lambda: list(shop.lines()) == ["apple"], "bread gone")
    assert [line["sku"] for line in server.cart(shop.cart_id)["items"]] == ["apple"]


def test_minus_pressed_again_after_a_line_goes_takes_no_other_line(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1), ("bread", 1), ("milk", 1)]))
    shop.open_cart()
    shop.wait_for(lambda: list(shop.lines()) == ["apple", "bread", "milk"], "the three lines")
    shop.find(hooked("decrement"), shop.line("apple")).send_keys(Keys.ENTER)
    shop.wait_for(lambda: list(shop.lines()) == ["bread", "milk"], "apple to go")
    ActionChains(browser).send_keys(Keys.ENTER).send_keys(Keys.ENTER).perform()
    time.sleep(1)
    assert list(shop.lines()) == ["bread", "milk"]
    assert [line["sku"] for line in server.cart(shop.cart_id)["items"]] == ["bread", "milk"]


def test_a_quantity_being_typed_is_kept_while_the_line_changes_elsewhere(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1), ("bread", 1)]))
    shop.open_cart()
    field = lambda sku: shop.find(hooked("quantity"), shop.line(sku))
    retype(field("apple"), "7")
    server.cli("set", "apple", "3", cart=shop.cart_id)
    shop.wait_for(lambda: shop.quantity("apple") == 3, "the change made elsewhere, in the product list")
    assert field("apple").get_attribute("value") == "7"
    field("apple").send_keys(Keys.ENTER)
    shop.wait_for(lambda: server.cart(shop.cart_id)["items"][0]["quantity"] == 7, "the typed 7 stored")


def test_a_stalled_shop_is_said_beside_the_control_and_the_change_lands_after(browser, server):
    shop = Shop(browser, server).open(server.mint())
    with held(server, settle=0):
        shop.press("add", "banana")
        row_refusal = shop.find(hooked("refusal"), shop.row("banana"))
        shop.wait_for(lambda: "slow to answer" in row_refusal.text, "the word that the shop is slow")
    shop.wait_for(lambda: shop.quantity("banana") == 1 and not row_refusal.is_displayed(), "the add, and the word gone")
    shop.in_step("after the stall")


def test_the_cart_status_inside_the_sheet_follows_changes_made_while_it_was_closed(browser, server):
    shop = Shop(browser, server).open(server.mint())
    shop.press("add", "apple")
    shop.wait_for(lambda: shop.quantity("apple") == 1, "apple added with the sheet closed")
    status = shop.find("#cart-status").get_attribute("textContent")
    assert status.startswith("Cart: 1\u00a0item, total "), status


def test_a_cap_the_page_has_not_read_yet_is_refused_in_the_same_words_as_one_it_knows(browser, server):
    shop = Shop(browser, server).open(server.mint([("milk", 1)]))
    try:
        # No event brings the lower cap: the line is within it, so the cart did not change.
        server.cli("db", "init", "--max-line-quantity", "2")
        shop.open_cart()
        field = lambda: shop.find(hooked("quantity"), shop.line("milk"))
        retype(field(), "3", Keys.ENTER)
        refusal = shop.find(hooked("refusal"), shop.line("milk"))
        shop.wait_for(lambda: refusal.text == "2 of one product is the most a cart can hold.", "the server's refusal in the page's words")
        assert server.cart(shop.cart_id)["items"][0]["quantity"] == 1
    finally:
        server.cli("db", "init", "--max-line-quantity", "99")


def test_a_line_above_a_cap_lowered_since_can_be_typed_down_but_not_up(browser, server):
    shop = Shop(browser, server).open(server.mint([("milk", 5)]))
    try:
        server.cli("db", "init", "--max-line-quantity", "2")
        shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
        shop.wait_for(lambda: not offered(shop.find(hooked("increment"), shop.row("milk"))), "+ off above the cap")
        assert shop.find(".stock", shop.row("milk")).text == "2 of one product is the most a cart can hold: take 3 out"
        shop.open_cart()
        field = lambda: shop.find(hooked("quantity"), shop.line("milk"))
        retype(field(), "4", Keys.ENTER)
        shop.wait_for(lambda: server.cart(shop.cart_id)["items"][0]["quantity"] == 4, "the line down to 4")
        retype(field(), "5", Keys.ENTER)
        refusal = shop.find(hooked("refusal"), shop.line("milk"))
        shop.wait_for(lambda: refusal.text == "2 of one product is the most a cart can hold.", "the cap's refusal on the line")
        assert server.cart(shop.cart_id)["items"][0]["quantity"] == 4
    finally:
        server.cli("db", "init", "--max-line-quantity", "99")


def test_add_is_not_offered_for_a_new_line_once_the_cart_holds_the_most_lines(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1), ("bread", 1)]))
    note = shop.find("#lines-full")
    assert not note.is_displayed()
    try:
        server.cli("db", "init", "--max-lines", "2")
        shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
        shop.wait_for(lambda: note.is_displayed(), "the note that the cart holds the most lines")
        assert note.text == "Your cart holds 2 lines, the most it can: take one out to add another product."
        # Set apart from the list below it, as the panels' other parts are.
        gap = browser.execute_script(
            "return document.getElementById('products').getBoundingClientRect().top"
            " - arguments[0].getBoundingClientRect().bottom", note)
        assert gap >= 8, gap
        assert not shop.find(hooked("add"), shop.row("milk")).is_enabled()
        # An Add that had the focus as it went off gives it to the note, not to a control of
        # another row further down.
        server.cli("delete", "bread", cart=shop.cart_id)
        shop.wait_for(lambda: shop.find(hooked("add"), shop.row("milk")).is_enabled(), "Add on again")
        add = shop.find(hooked("add"), shop.row("milk"))
        browser.execute_script("arguments[0].focus()", add)
        server.cli("add", "bread", cart=shop.cart_id)
        shop.wait_for(lambda: not add.is_enabled(), "Add off again")
        shop.wait_for(lambda: focused(browser) == note, "the focus on the note")
        # A line already held can still grow.
        assert offered(shop.find(hooked("increment"), shop.row("apple")))
        server.cli("delete", "bread", cart=shop.cart_id)
        shop.wait_for(lambda: not note.is_displayed(), "the note to go with a line out")
        assert shop.find(hooked("add"), shop.row("milk")).is_enabled()
        # A cap lowered below the lines the cart holds: the note counts them.
        server.cli("add", "milk", cart=shop.cart_id)
        server.cli("db", "init", "--max-lines", "1")
        shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
        shop.wait_for(lambda: note.text == "Your cart holds 2 lines, more than the 1 a cart may hold: take 1 out to check out.",
                      "the note that the cart holds more lines than it may")
    finally:
        server.cli("db", "init", "--max-lines", "100")


def test_a_placed_order_empties_the_sheet_even_when_the_cart_cannot_be_read_after_it(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 2)]))
    shop.open_cart()
    shop.wait_for(lambda: shop.lines() == {"apple": 2}, "the line")
    # Reads of the cart are held from now on (the event stream and the order are other URLs).
    browser.execute_cdp_cmd("Fetch.enable", {"patterns": [{"urlPattern": f"*/v1/carts/{shop.cart_id}"}]})
    try:
        shop.press("checkout")
        confirmation = shop.find(hooked("order-confirmation"))
        shop.wait_for(lambda: confirmation.text.startswith("Order #"), "the confirmation")
        shop.wait_for(lambda: shop.lines() == {} and shop.badge() == 0, "the sheet emptied")
        assert not shop.find("#cart-refusal").is_displayed()
        assert focused(browser) == shop.find("#cart-done")
    finally:
        browser.execute_cdp_cmd("Fetch.disable", {})
    assert [order["totalItems"] for order in server.orders(shop.cart_id)] == [2]
    shop.close_cart()
    shop.press("add", "apple")
    shop.wait_for(lambda: shop.quantity("apple") == 1, "the shop to go on after the order")
    shop.in_step("after the order")


def test_a_lines_changes_are_made_in_the_order_they_were_asked_for(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 2), ("bread", 1)]))
    shop.open_cart()
    shop.wait_for(lambda: shop.lines() == {"apple": 2, "bread": 1}, "the lines")
    # With the server held, + and then the line's delete, and a quantity typed and then +:
    # each is sent once the line's change before it is answered.
    with held(server):
        shop.press("increment", "apple", within="cart-line")
        shop.press("line-delete", "apple", within="cart-line")
        field = shop.find(hooked("quantity"), shop.line("bread"))
        retype(field, "5", Keys.ENTER)
        retype(field, "7", Keys.ENTER)
        shop.press("increment", "bread", within="cart-line")
    shop.wait_for(lambda: server.cart(shop.cart_id)["totalItems"] == 8 and shop.lines() == {"bread": 8},
                  "apple deleted after its +, bread at 5, then 7, then one more")
    shop.in_step("after the queued changes")
    # Clicks on a + still on its way keep their place among the line's other changes: +, 5
    # typed, + again is 6; and two −, then 6 typed (the quantity the page still shows), is 6.
    line = shop.line("bread")
    with held(server):
        shop.press("increment", "bread", within="cart-line")
        field = shop.find(hooked("quantity"), line)
        retype(field, "5", Keys.ENTER)
        shop.press("increment", "bread", within="cart-line")
    shop.wait_for(lambda: server.cart(shop.cart_id)["totalItems"] == 6 and shop.lines() == {"bread": 6}, "+, 5, + is 6")
    with held(server):
        shop.press("decrement", "bread", within="cart-line")
        shop.press("decrement", "bread", within="cart-line")
        retype(field, "6", Keys.ENTER)
    shop.wait_for(lambda: server.cart(shop.cart_id)["totalItems"] == 6 and shop.lines() == {"bread": 6},
                  "−, −, then 6 typed is 6")
    # A change refused among them stops a checkout that waits for them, and says so, also
    # when a later change has cleared the line's own refusal.
    server.cli("products", "update", "bread", "--stock", "6")
    try:
        with held(server):
            shop.press("increment", "bread", within="cart-line")
            shop.press("decrement", "bread", within="cart-line")
            shop.press("checkout")
        refusal = shop.find("#cart-refusal")
        shop.wait_for(lambda: refusal.is_displayed() and "did not go through" in refusal.text, "the stopped order said")
        assert server.orders(shop.cart_id) == []
    finally:
        server.cli("products", "update", "bread", "--no-stock")


def test_focus_goes_to_done_when_the_cart_empties_under_checkout_and_to_a_neighbour_when_add_is_off(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1)]))
    shop.open_cart()
    shop.find(hooked("checkout")).send_keys(Keys.SHIFT)
    assert focused(browser) == shop.find(hooked("checkout"))
    server.cli("checkout", cart=shop.cart_id)
    shop.wait_for(lambda: shop.lines() == {}, "the cart emptied by an order placed elsewhere")
    assert focused(browser) == shop.find("#cart-done")
    # Emptied elsewhere while the sheet asks whether to clear it: the question goes, and the
    # focus goes to Done.
    server.cli("add", "apple", cart=shop.cart_id)
    shop.wait_for(lambda: shop.lines() == {"apple": 1}, "an apple again")
    shop.find(hooked("clear-cart")).click()
    shop.wait_for(lambda: shop.find("#confirm-clear").is_displayed(), "the question")
    server.cli("clear", cart=shop.cart_id)
    shop.wait_for(lambda: not shop.find("#confirm-clear").is_displayed(), "the question gone with the lines")
    assert focused(browser) == shop.find("#cart-done")
    shop.close_cart()
    # The last unit of a product sold out meanwhile taken out with − of its row: Add, which
    # takes the stepper's place, is off, so the focus goes to a control nearby.
    server.cli("products", "add", "rhubarb", "--name", "Rhubarb", "--price", "2.00", "--stock", "1")
    try:
        server.cli("add", "rhubarb", cart=shop.cart_id)
        server.cli("products", "update", "rhubarb", "--stock", "0")
        shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
        shop.wait_for(lambda: shop.driver.find_elements(By.CSS_SELECTOR, hooked("product-row", "rhubarb"))
                      and shop.quantity("rhubarb") == 1 and not offered(shop.find(hooked("add"), shop.row("rhubarb"))),
                      "the row sold out with a unit in the cart")
        minus = shop.find(hooked("decrement"), shop.row("rhubarb"))
        minus.send_keys(Keys.ENTER)
        shop.wait_for(lambda: shop.quantity("rhubarb") == 0, "the unit taken out")
        assert focused(browser).tag_name == "button" and focused(browser).is_displayed()
    finally:
        server.cli("products", "delete", "rhubarb")


def test_the_shop_follows_the_readers_text_size(server):
    driver = new_browser({"webkit": {"webprefs": {"default_font_size": 32}}})
    try:
        shop = Shop(driver, server).open(server.mint([("apple", 3), ("bread", 1)]))
        size = lambda selector: float(driver.execute_script(
            "return getComputedStyle(document.querySelector(arguments[0])).fontSize", selector)[:-2])
        assert size("body") == 32
        assert size(hooked("product-row") + " .product-name") >= 32
        # The badge grows with its number, which stays inside it.
        badge = shop.find(hooked("cart-badge"))
        assert driver.execute_script(
            "const b = arguments[0]; return b.scrollHeight <= b.clientHeight && b.scrollWidth <= b.clientWidth", badge)
        assert size(hooked("cart-badge")) == 24
        # The sheet is narrow for such text also on a wide screen: a line's name keeps its
        # words whole there too.
        shop.open_cart()
        name = shop.find(".line-name", shop.line("bread"))
        assert name.size["height"] < 1.6 * size(".line-name"), "Sourdough bread on one line"
        shop.close_cart()
        # On a phone, bars that stayed in view would cover most of the screen: they scroll.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 375, "height": 650, "deviceScaleFactor": 1, "mobile": True})
        shop.open_cart()
        position = lambda selector: driver.execute_script(
            "return getComputedStyle(document.querySelector(arguments[0])).position", selector)
        assert [position(selector) for selector in (".bar", ".sheet-head", "#cart-foot")] == ["static"] * 3
        # A product's name keeps its words whole, the line's total and delete going under it.
        name = shop.find(".line-name", shop.line("bread"))
        assert name.size["height"] < 1.6 * size(".line-name")
    finally:
        driver.quit()


def test_queued_clicks_are_dropped_without_failing_and_a_refusal_drops_the_clicks_after_it(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1), ("bread", 1)]))
    shop.open_cart()
    shop.wait_for(lambda: shop.lines() == {"apple": 1, "bread": 1}, "the lines")
    # A double click on − at one unit takes the line out once; the second click has no line
    # left, which is no failure: the order that waits for both is placed.
    with held(server):
        ActionChains(browser).double_click(shop.find(hooked("decrement"), shop.line("apple"))).perform()
        shop.press("checkout")
    shop.wait_for(lambda: [order["totalItems"] for order in server.orders(shop.cart_id)] == [1], "the order of the bread")
    assert server.orders(shop.cart_id)[0]["lines"][0]["sku"] == "bread"
    # Four + with two units left: one is added, the next refused, and the two after it dropped.
    server.cli("products", "add", "kale", "--name", "Kale", "--price", "2.50", "--stock", "10")
    try:
        server.cli("add", "kale", cart=shop.cart_id)
        shop.wait_for(lambda: shop.lines() == {"kale": 1}, "the kale")
        # Lowered without the page's knowing: no line goes past it, so no event says so.
        server.cli("products", "update", "kale", "--stock", "2")
        with held(server):
            for _ in range(4):
                shop.press("increment", "kale", within="cart-line")
        shop.wait_for(lambda: shop.lines() == {"kale": 2}, "two kale")
        time.sleep(1)
        refused = [line for line in server.log.read_text().splitlines()
                   if f"POST /v1/carts/{shop.cart_id}/items 422" in line]
        assert len(refused) == 1, refused
        # Clicks on + still queued when the sheet closes are still made.
        server.cli("products", "update", "kale", "--no-stock")
        shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
        shop.wait_for(lambda: offered(shop.find(hooked("increment"), shop.line("kale"))), "+ on again")
        with held(server):
            for _ in range(3):
                shop.press("increment", "kale", within="cart-line")
            shop.find("#cart-done").click()
        shop.wait_for(lambda: server.cart(shop.cart_id)["totalItems"] == 5, "the three clicks made")
    finally:
        server.cli("delete", "kale", cart=shop.cart_id)
        server.cli("products", "delete", "kale")


def test_a_double_click_on_a_lines_delete_takes_only_that_line(browser, server):
    shop = Shop(browser, server).open(server.mint([("apple", 1), ("bread", 1), ("milk", 1)]))
    shop.open_cart()
    shop.wait_for(lambda: len(shop.lines()) == 3, "the lines")
    first = browser.find_elements(By.CSS_SELECTOR, hooked("cart-line"))[0].get_attribute("data-sku")
    delete = shop.find(hooked("line-delete"), shop.line(first))
    ActionChains(browser).move_to_element(delete).click().pause(0.2).click().perform()
    shop.wait_for(lambda: first not in shop.lines(), "the first line gone")
    time.sleep(1)
    assert len(server.cart(shop.cart_id)["items"]) == 2


def test_the_focus_on_a_row_that_goes_never_lands_on_a_minus(browser, server):
    server.cli("products", "add", "zz-a", "--name", "Zzz first", "--price", "1.00")
    server.cli("products", "add", "zz-b", "--name", "Zzz second", "--price", "1.00")
    try:
        shop = Shop(browser, server).open(server.mint([("zz-b", 1)]))
        add = shop.find(hooked("add"), shop.row("zz-a"))
        browser.execute_script("arguments[0].focus()", add)
        server.cli("products", "update", "zz-a", "--inactive")
        shop.driver.execute_script("window.dispatchEvent(new Event('focus'))")
        shop.wait_for(lambda: not shop.driver.find_elements(By.CSS_SELECTOR, hooked("product-row", "zz-a")), "the row gone")
        assert focused(browser).get_attribute("data-testid") != "decrement"
        assert focused(browser) == shop.find(hooked("increment"), shop.row("zz-b"))
    finally:
        server.cli("products", "delete", "zz-a")
        server.cli("delete", "zz-b", cart=shop.cart_id)
        server.cli("products", "delete", "zz-b")
