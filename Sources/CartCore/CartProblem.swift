/// Something about a cart as it is now that stops its checkout: a line of a product taken off
/// sale or gone from the catalog, more units than are in stock or than a line may hold, more
/// lines than a cart may hold, a line whose quantity another client stored out of range, a
/// product whose name another client stored so that no order can keep it.
/// `CartService.cartReport(_:)` lists every one; `CartService.checkout` refuses a cart that has
/// any, naming them all (`CartError.cannotCheckOut`).
///
/// Problems arise after the cart was filled, when the catalog or the settings change: each
/// change to a line is checked when it is made.
public struct CartProblem: Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem, as a stable `snake_case` code for programs.
    public enum Code: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The line's product is not for sale.
        case inactiveProduct = "inactive_product"
        /// The line's product is no longer in the catalog.
        case unknownProduct = "unknown_product"
        /// The line holds more units than are in stock.
        case insufficientStock = "insufficient_stock"
        /// The line holds more units than the per-line cap.
        case lineQuantityCap = "line_quantity_cap"
        /// The cart holds more lines than the lines-per-cart cap.
        case lineCountCap = "line_count_cap"
        /// The line's quantity, as another client stored it, is one no line can hold (0, -5):
        /// the cart is shown without the line until it is set or deleted.
        case damagedLine = "damaged_line"
        /// The line's product has a name, as another client stored it, that no product can
        /// have (empty, or with control characters): an order could not keep it.
        case damagedProduct = "damaged_product"

        /// The code itself, `inactive_product`.
        public var description: String { rawValue }
    }

    /// The SKU of the line, or `nil` for a problem of the whole cart (`lineCountCap`).
    public let sku: String?
    /// The kind of problem.
    public let code: Code
    /// One sentence for people, naming the SKU and the numbers.
    public let message: String
    /// The quantity the store holds for a damaged line (`damagedLine`), which the cart shows
    /// nowhere else since it leaves the line out; `nil` for every other problem.
    public let quantity: Int?

    /// Creates a problem; the factories below write the message.
    public init(sku: String?, code: Code, message: String, quantity: Int? = nil) {
        self.sku = sku
        self.code = code
        self.message = message
        self.quantity = quantity
    }

    public var description: String { message }

    /// The line's product is not for sale.
    public static func inactiveProduct(_ sku: String) -> CartProblem {
        CartProblem(sku: sku, code: .inactiveProduct, message: "'\(sku.displayable)' is not for sale.")
    }

    /// The line's product is no longer in the catalog.
    public static func unknownProduct(_ sku: String) -> CartProblem {
        CartProblem(sku: sku, code: .unknownProduct, message: "'\(sku.displayable)' is no longer in the catalog.")
    }

    /// The line holds `quantity` units and `available` are in stock.
    public static func insufficientStock(sku: String, quantity: Int, available: Int) -> CartProblem {
        CartProblem(
            sku: sku, code: .insufficientStock,
            message: "'\(sku.displayable)': \(quantity) in the cart, \(available) in stock.")
    }

    /// The line holds `quantity` units and at most `cap` are allowed.
    public static func lineQuantityCap(sku: String, quantity: Int, cap: Int) -> CartProblem {
        CartProblem(
            sku: sku, code: .lineQuantityCap,
            message: "'\(sku.displayable)': \(quantity) in the cart, at most \(cap) per line.")
    }

    /// The line's stored `quantity` is outside the range a line may hold.
    public static func damagedLine(sku: String, quantity: Int) -> CartProblem {
        CartProblem(
            sku: sku, code: .damagedLine,
            message: "'\(sku.displayable)': the store holds \(quantity) units, which no line can hold; set the line's quantity or delete it.",
            quantity: quantity)
    }

    /// The line's product is called `name`, which no product can be, for `reason`.
    public static func damagedProduct(sku: String, name: String, reason: String) -> CartProblem {
        CartProblem(
            sku: sku, code: .damagedProduct,
            message: "'\(sku.displayable)': the store holds the name '\(DisplayText.clean(name))' for it, which no product can have (\(reason)); rename the product.")
    }

    /// The cart holds `lines` lines and at most `cap` are allowed.
    public static func lineCountCap(lines: Int, cap: Int) -> CartProblem {
        CartProblem(
            sku: nil, code: .lineCountCap,
            message: "\(lines) lines in the cart, at most \(cap) per cart.")
    }
}
