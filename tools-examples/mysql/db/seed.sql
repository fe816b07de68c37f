-- The shop's rows; the same data as the postgres example's. Safe to run again: rows already there
-- are kept (INSERT IGNORE skips rows whose id exists).
INSERT IGNORE INTO customers (id, name, email, country, vip, created_at) VALUES
  (1, 'Ada Lovelace',      'ada@example.com',       'GB', true,  '2024-01-15 09:30:00'),
  (2, 'Grace Hopper',      'grace@example.com',     'US', false, '2024-02-03 14:05:00'),
  (3, 'Alan Turing',       'alan@example.com',      'GB', false, '2024-02-20 11:00:00'),
  (4, 'Katherine Johnson', 'katherine@example.com', 'US', true,  '2024-03-08 16:45:00'),
  (5, 'Edsger Dijkstra',   'edsger@example.com',    'NL', false, '2024-04-01 08:15:00');

INSERT IGNORE INTO products (id, sku, name, category, price, tags, attributes, thumbnail) VALUES
  (1, '7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e01', 'Mechanical keyboard', 'peripherals', 129.00,
      '["keyboard", "usb"]', '{"layout": "ISO", "switches": "brown"}', x'89504e47'),
  (2, '7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e02', 'Wireless mouse', 'peripherals', 39.90,
      '["mouse", "wireless"]', '{"dpi": 1600, "buttons": 5}', NULL),
  (3, '7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e03', '27-inch monitor', 'displays', 289.00,
      '["monitor"]', '{"size_inches": 27, "panel": "IPS"}', NULL),
  (4, '7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e04', 'USB-C hub', 'accessories', 49.50,
      '["usb", "hub"]', '{"ports": 7}', NULL),
  (5, '7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e05', 'Laptop stand', 'accessories', 34.00,
      '[]', '{}', NULL),
  (6, '7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e06', 'Noise-cancelling headphones', 'audio', 199.00,
      '["audio", "wireless"]', '{"anc": true}', NULL);

INSERT IGNORE INTO orders (id, customer_id, product_id, quantity, status, ordered_at, ship_by) VALUES
   (1, 1, 1, 1, 'delivered', '2024-05-02 10:00:00', '2024-05-04'),
   (2, 1, 4, 2, 'shipped',   '2024-06-11 12:30:00', '2024-06-13'),
   (3, 2, 3, 1, 'pending',   '2024-06-14 09:10:00', '2024-06-18'),
   (4, 2, 2, 3, 'delivered', '2024-05-20 15:45:00', '2024-05-22'),
   (5, 3, 6, 1, 'cancelled', '2024-05-28 18:20:00', NULL),
   (6, 3, 5, 1, 'pending',   '2024-06-15 07:55:00', '2024-06-19'),
   (7, 4, 1, 2, 'shipped',   '2024-06-09 13:00:00', '2024-06-11'),
   (8, 4, 3, 1, 'delivered', '2024-04-30 10:25:00', '2024-05-02'),
   (9, 5, 2, 1, 'pending',   '2024-06-16 17:40:00', '2024-06-20'),
  (10, 5, 6, 1, 'delivered', '2024-05-05 11:11:00', '2024-05-07');
