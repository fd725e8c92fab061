extension CartAPI {
    /// Every route of the API: what the router matches, in one table that the OpenAPI
    /// document (`docs/openapi.yaml`, served at `/v1/openapi.yaml`) is tested against.
    public static let routes: [CartRoute] = [
        CartRoute("GET", "/v1/health", "getHealth", .everyone) { try $0.health($1) },
        CartRoute("GET", "/v1/openapi.yaml", "getOpenAPIDocument", .everyone, readsIfMatch: true) { try $0.openAPIDocument($1) },
        CartRoute("GET", "/v1/settings", "getSettings", .everyone) { try $0.settings($1) },
        CartRoute("GET", "/v1/products", "listProducts", .everyone, readsIfMatch: true) { try $0.listProducts($1) },
        CartRoute("GET", "/v1/products/{sku}", "getProduct", .everyone) { try $0.getProduct($1) },
        CartRoute("PUT", "/v1/products/{sku}", "putProduct", .admin, readsIfMatch: true) { try $0.putProduct($1) },
        CartRoute("PATCH", "/v1/products/{sku}", "patchProduct", .admin, readsIfMatch: true) { try $0.patchProduct($1) },
        CartRoute("POST", "/v1/carts", "mintCart", .everyone) { try $0.mintCart($1) },
        CartRoute("GET", "/v1/carts/{id}", "getCart", .cart, readsIfMatch: true) { try $0.getCart($1) },
        CartRoute("POST", "/v1/carts/{id}/items", "addItem", .cart, readsIfMatch: true) { try $0.addItem($1) },
        CartRoute("DELETE", "/v1/carts/{id}/items", "clearCart", .cart, readsIfMatch: true) { try $0.clearCart($1) },
        CartRoute("PUT", "/v1/carts/{id}/items/{sku}", "setItem", .cart, readsIfMatch: true) { try $0.setItem($1) },
        CartRoute("DELETE", "/v1/carts/{id}/items/{sku}", "deleteItem", .cart, readsIfMatch: true) { try $0.deleteItem($1) },
        CartRoute("POST", "/v1/carts/{id}/items/{sku}/remove", "removeItem", .cart, readsIfMatch: true) { try $0.removeItem($1) },
        CartRoute("POST", "/v1/carts/{id}/merge", "mergeCart", .cart, readsIfMatch: true) { try $0.mergeCart($1) },
        CartRoute("POST", "/v1/carts/{id}/checkout", "checkout", .cart, readsIfMatch: true) { try $0.checkout($1) },
        CartRoute("GET", "/v1/carts/{id}/orders", "listCartOrders", .cart) { try $0.cartOrders($1) },
        CartRoute("GET", "/v1/carts/{id}/events", "streamCartEvents", .cart, streams: true) { try $0.cartEvents($1) },
        CartRoute("GET", "/v1/orders", "listOrders", .admin) { try $0.listOrders($1) },
        CartRoute("GET", "/v1/orders/stats", "getOrderStats", .admin) { try $0.orderStats($1) },
        CartRoute("GET", "/v1/orders/{number}", "getOrder", .admin) { try $0.getOrder($1) },
        CartRoute("GET", "/v1/orders.csv", "exportOrders", .admin, streams: true) { try $0.exportOrders($1) },
    ]
}
