-- The catalogue: cities, districts, stores, categories, products, hot words.
-- Each row keeps its whole domain document (JSON text, money in fen) beside the
-- columns that are filtered, joined or changed on their own.
-- Integers are BIGINT in both dialects so one query set decodes the same on both.

CREATE TABLE cities (
    city_code   TEXT PRIMARY KEY,
    sort        BIGINT NOT NULL,
    doc         TEXT NOT NULL
);

CREATE TABLE districts (
    district_code TEXT PRIMARY KEY,
    city_code     TEXT NOT NULL REFERENCES cities (city_code),
    sort          BIGINT NOT NULL,
    doc           TEXT NOT NULL
);
CREATE INDEX districts_city ON districts (city_code);

CREATE TABLE stores (
    store_code    TEXT PRIMARY KEY,
    city_code     TEXT NOT NULL REFERENCES cities (city_code),
    district_code TEXT NOT NULL REFERENCES districts (district_code),
    group_code    TEXT NOT NULL,
    is_default    BIGINT NOT NULL DEFAULT 0,
    doc           TEXT NOT NULL,
    version       BIGINT NOT NULL DEFAULT 1,
    updated_at    BIGINT NOT NULL
);
CREATE INDEX stores_city ON stores (city_code, district_code);

CREATE TABLE categories (
    category_code TEXT PRIMARY KEY,
    sort          BIGINT NOT NULL,
    doc           TEXT NOT NULL
);

CREATE TABLE products (
    product_code  TEXT PRIMARY KEY,
    category_code TEXT NOT NULL REFERENCES categories (category_code),
    sort          BIGINT NOT NULL,
    doc           TEXT NOT NULL,
    updated_at    BIGINT NOT NULL
);
CREATE INDEX products_category ON products (category_code);

CREATE TABLE hot_words (
    sort    BIGINT PRIMARY KEY,
    word_cn TEXT NOT NULL,
    word_en TEXT NOT NULL
);
