-- Channels compare byte by byte (the PostgreSQL store's
-- 0007_channel_order.sql makes its column do so): a list of the channels
-- that start with a prefix asks for the range prefix <= channel < end
-- (storage.PrefixEnd), which the index of open channels serves. SQLite's
-- text compares byte by byte already (BINARY): nothing changes here, and
-- the number keeps the two stores' migrations alike.
SELECT 1;
