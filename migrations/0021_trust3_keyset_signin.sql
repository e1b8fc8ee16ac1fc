CREATE TABLE "sign_in_failures" (
	"scope" text NOT NULL,
	"key_hash" text NOT NULL,
	"failures" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sign_in_failures_scope_key_hash_pk" PRIMARY KEY("scope","key_hash")
);
--> statement-breakpoint
DROP INDEX "audit_log_at_idx";--> statement-breakpoint
CREATE INDEX "sign_in_failures_last_idx" ON "sign_in_failures" USING btree ("scope","last_at");--> statement-breakpoint
CREATE INDEX "candidates_name_idx" ON "candidates" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "candidates_affiliation_idx" ON "candidates" USING btree ("affiliation","id");--> statement-breakpoint
CREATE INDEX "proposals_title_idx" ON "proposals" USING btree ("title","id");--> statement-breakpoint
CREATE INDEX "ranked_lists_variant_idx" ON "ranked_lists" USING btree ("variant","id");--> statement-breakpoint
CREATE INDEX "ranked_lists_imported_idx" ON "ranked_lists" USING btree ("imported_at","id");--> statement-breakpoint
CREATE INDEX "users_name_idx" ON "users" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree ("email","id");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at","id");