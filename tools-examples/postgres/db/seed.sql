-- The shop's rows; the same data as the mysql example's. Safe to run again: rows already there are kept.
INSERT INTO customers (id, name, email, country, vip, created_at) VALUES
  (1, 'Ada Lovelace',      'ada@example.com',       'GB', true,  '2024-01-15T09:30:00Z'),
  (2, 'Grace Hopper',      'grace@example.com',     'US', false, '2024-02-03T14:05:00Z'),
  (3, 'Alan Turing',       'alan@example.com',      'GB', false, '2024-02-20T11:00:00Z'),
  (4, 'Katherine Johnson', 'katherine@example.com', 'US', true,  '2024-03-08T16:45:00Z'),
  (5, 'Edsger Dijkstra',   'edsger@example.com',    'NL', false, '2024-04-01T08:15:00Z')
ON CONFLICT DO NOTHING;

INSERT INTO products (id, sku, name, category, price, tags, attributes, thumbnail) VALUES
  (1, '7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e01', 'Mechanical keyboard', 'peripherals', 129.00,
      ARRAY['keyboard', 'usb'], '{"layout": "ISO", "switches": "brown"}', '\x89504e47'),
  (2, '7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e02', 'Wireless mouse', 'peripherals', 39.90,
      ARRAY['mouse', 'wireless'], '{"dpi": 1600, "buttons": 5}', NULL),
  (3, '7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e03', '27-inch monitor', 'displays', 289.00,
      ARRAY['monitor'], '{"size_inches": 27, "panel": "IPS"}', NULL),
  (4, '7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e04', 'USB-C hub', 'accessories', 49.50,
      ARRAY['usb', 'hub'], '{"ports": 7}', NULL),
  (5, '7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e05', 'Laptop stand', 'accessories', 34.00,
      ARRAY[]::TEXT[], '{}', NULL),
  (6, '7f1c2a9e-4b1d-4c55-9a0e-1d2b3c4d5e06', 'Noise-cancelling headphones', 'audio', 199.00,
      ARRAY['audio', 'wireless'], '{"anc": true}', NULL)
ON CONFLICT DO NOTHING;

INSERT INTO orders (id, customer_id, product_id, quantity, status, ordered_at, ship_by) VALUES
   (1, 1, 1, 1, 'delivered', '2024-05-02T10:00:00Z', '2024-05-04'),
   (2, 1, 4, 2, 'shipped',   '2024-06-11T12:30:00Z', '2024-06-13'),
   (3, 2, 3, 1, 'pending',   '2024-06-14T09:10:00Z', '2024-06-18'),
   (4, 2, 2, 3, 'delivered', '2024-05-20T15:45:00Z', '2024-05-22'),
   (5, 3, 6, 1, 'cancelled', '2024-05-28T18:20:00Z', NULL),
   (6, 3, 5, 1, 'pending',   '2024-06-15T07:55:00Z', '2024-06-19'),
   (7, 4, 1, 2, 'shipped',   '2024-06-09T13:00:00Z', '2024-06-11'),
   (8, 4, 3, 1, 'delivered', '2024-04-30T10:25:00Z', '2024-05-02'),
   (9, 5, 2, 1, 'pending',   '2024-06-16T17:40:00Z', '2024-06-20'),
  (10, 5, 6, 1, 'delivered', '2024-05-05T11:11:00Z', '2024-05-07')
ON CONFLICT DO NOTHING;

-- the explicit ids above leave the identity behind: new orders continue after the highest
SELECT setval(pg_get_serial_sequence('orders', 'id'), (SELECT max(id) FROM orders));
