CREATE TABLE customers (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL,
  email       TEXT NOT NULL UNIQUE,
  country     TEXT NOT NULL,
  created_at  TEXT NOT NULL
);

INSERT INTO customers (id, name, email, country, created_at) VALUES
  (1, 'Ada Lovelace',     'ada@example.com',     'GB', '2024-01-15T09:30:00Z'),
  (2, 'Grace Hopper',     'grace@example.com',   'US', '2024-02-03T14:05:00Z'),
  (3, 'Alan Turing',      'alan@example.com',    'GB', '2024-02-20T11:00:00Z'),
  (4, 'Katherine Johnson','katherine@example.com','US', '2024-03-08T16:45:00Z'),
  (5, 'Edsger Dijkstra',  'edsger@example.com',  'NL', '2024-04-01T08:15:00Z');
