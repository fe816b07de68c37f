-- The shop's tables on MySQL 8 or MariaDB 10.5+. Times are stored in UTC.
-- Safe to run again: existing tables are kept.
CREATE TABLE IF NOT EXISTS customers (
  id          INT PRIMARY KEY,
  name        VARCHAR(100) NOT NULL,
  email       VARCHAR(200) NOT NULL UNIQUE,
  country     CHAR(2) NOT NULL,
  vip         BOOLEAN NOT NULL DEFAULT false,
  created_at  DATETIME NOT NULL
);

CREATE TABLE IF NOT EXISTS products (
  id          INT PRIMARY KEY,
  sku         CHAR(36) NOT NULL UNIQUE,
  name        VARCHAR(100) NOT NULL,
  category    VARCHAR(50) NOT NULL,
  price       DECIMAL(10,2) NOT NULL,
  tags        JSON NOT NULL,
  attributes  JSON NOT NULL,
  thumbnail   BLOB
);

CREATE TABLE IF NOT EXISTS orders (
  id          INT AUTO_INCREMENT PRIMARY KEY,
  customer_id INT NOT NULL,
  product_id  INT NOT NULL,
  quantity    INT NOT NULL CHECK (quantity > 0),
  status      VARCHAR(20) NOT NULL CHECK (status IN ('pending', 'shipped', 'delivered', 'cancelled')),
  ordered_at  DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  ship_by     DATE,
  FOREIGN KEY (customer_id) REFERENCES customers(id),
  FOREIGN KEY (product_id) REFERENCES products(id),
  INDEX orders_by_status (status),
  INDEX orders_by_customer (customer_id)
);
