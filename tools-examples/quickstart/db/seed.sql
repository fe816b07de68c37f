INSERT INTO customers (id, name, email, country, created_at) VALUES
  (1, 'Ada Lovelace',     'ada@example.com',     'GB', '2024-01-15T09:30:00Z'),
  (2, 'Grace Hopper',     'grace@example.com',   'US', '2024-02-03T14:05:00Z'),
  (3, 'Alan Turing',      'alan@example.com',    'GB', '2024-02-20T11:00:00Z'),
  (4, 'Katherine Johnson','katherine@example.com','US', '2024-03-08T16:45:00Z'),
  (5, 'Edsger Dijkstra',  'edsger@example.com',  'NL', '2024-04-01T08:15:00Z');

INSERT INTO products (id, name, category, price) VALUES
  (1, 'Mechanical keyboard', 'peripherals', 129.00),
  (2, 'Wireless mouse',      'peripherals',  39.90),
  (3, '27-inch monitor',     'displays',    289.00),
  (4, 'USB-C hub',           'accessories',  49.50),
  (5, 'Laptop stand',        'accessories',  34.00),
  (6, 'Noise-cancelling headphones', 'audio', 199.00);

INSERT INTO orders (id, customer_id, product_id, quantity, status, ordered_at) VALUES
  (1,  1, 1, 1, 'delivered', '2024-05-02T10:00:00Z'),
  (2,  1, 4, 2, 'shipped',   '2024-06-11T12:30:00Z'),
  (3,  2, 3, 1, 'pending',   '2024-06-14T09:10:00Z'),
  (4,  2, 2, 3, 'delivered', '2024-05-20T15:45:00Z'),
  (5,  3, 6, 1, 'cancelled', '2024-05-28T18:20:00Z'),
  (6,  3, 5, 1, 'pending',   '2024-06-15T07:55:00Z'),
  (7,  4, 1, 2, 'shipped',   '2024-06-09T13:00:00Z'),
  (8,  4, 3, 1, 'delivered', '2024-04-30T10:25:00Z'),
  (9,  5, 2, 1, 'pending',   '2024-06-16T17:40:00Z'),
  (10, 5, 6, 1, 'delivered', '2024-05-05T11:11:00Z');
