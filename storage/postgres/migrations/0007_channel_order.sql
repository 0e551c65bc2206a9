-- Channels compare byte by byte, as in SQLite (the SQLite store's
-- 0007_channel_order.sql): a list of the channels that start with a prefix
-- asks for the range prefix <= channel < end (storage.PrefixEnd), which
-- the indexes on the channel serve only in an order of bytes. In the
-- database's own collation (en_US.UTF-8, say) the range would hold other
-- channels, and starts_with() or substr() read every row. Equality is the
-- same in both: the indexes are rebuilt, the table is not rewritten.
ALTER TABLE matches ALTER COLUMN channel TYPE text COLLATE "C";
