CREATE TABLE "adjudications" (
	"item_id" integer PRIMARY KEY NOT NULL,
	"grade" smallint NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"adjudicated_by" integer NOT NULL,
	"adjudicated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "adjudications" ADD CONSTRAINT "adjudications_item_id_campaign_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."campaign_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjudications" ADD CONSTRAINT "adjudications_adjudicated_by_users_id_fk" FOREIGN KEY ("adjudicated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;