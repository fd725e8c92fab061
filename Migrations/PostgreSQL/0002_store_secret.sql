-- The store's secret (CartService.storeSecret), one row of 64 lowercase hex digits; docs/SCHEMA.md says why.

CREATE TABLE store_secret (
    id integer PRIMARY KEY CHECK (id = 1),
    secret text COLLATE "C" NOT NULL CHECK (secret ~ '^[0-9a-f]{64}$')
);
