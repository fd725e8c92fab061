-- The store's secret (CartService.storeSecret), one row of 64 lowercase hex digits; docs/SCHEMA.md says why.

CREATE TABLE store_secret (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL CHECK (length(secret) = 64 AND secret NOT GLOB '*[^0-9a-f]*')
) STRICT;
