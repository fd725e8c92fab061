-- Carts no longer keep a summary of their lines; the lines themselves are the record.
ALTER TABLE carts DROP COLUMN line_count;
ALTER TABLE carts DROP COLUMN next_position;
