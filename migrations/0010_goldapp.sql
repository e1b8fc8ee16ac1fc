CREATE TABLE "campaign_truth" (
	"item_id" integer PRIMARY KEY NOT NULL,
	"grade" smallint NOT NULL,
	"set_by" integer,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_truth" ADD CONSTRAINT "campaign_truth_item_id_campaign_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."campaign_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_truth" ADD CONSTRAINT "campaign_truth_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;