-- Full-text search over received mail: a tsvector column on "Email" with a
-- GIN index, set by a trigger in the same transaction as every insert and
-- change, 'simple' configuration over unaccented text, so words match
-- without case or accents. Subject weighs most, then the sender, then text.
CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public;

ALTER TABLE "Email" ADD COLUMN "search" tsvector;

-- Punctuation becomes space first: the parser would keep an address or a URL
-- as one token, and "acme" should find billing@acme.example as it does on SQLite.
CREATE FUNCTION "email_search_words"(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT regexp_replace(public.unaccent(COALESCE(value, '')), '[[:space:][:punct:]]+', ' ', 'g')
$$;

CREATE FUNCTION "email_search_vector"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW."search" :=
        setweight(to_tsvector('simple', "email_search_words"(NEW."subject")), 'A') ||
        setweight(to_tsvector('simple', "email_search_words"(NEW."fromName" || ' ' || NEW."fromAddress")), 'B') ||
        setweight(to_tsvector('simple', "email_search_words"(NEW."text")), 'C');
    RETURN NEW;
END
$$;

CREATE TRIGGER "Email_search" BEFORE INSERT OR UPDATE OF "subject", "fromName", "fromAddress", "text" ON "Email"
    FOR EACH ROW EXECUTE FUNCTION "email_search_vector"();

UPDATE "Email" SET "text" = "text";

CREATE INDEX "Email_search_idx" ON "Email" USING GIN ("search");

CREATE INDEX "Email_agentId_fromAddress_idx" ON "Email"("agentId", "fromAddress");
