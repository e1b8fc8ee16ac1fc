CREATE TABLE "campaign_invitations" (
	"token_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	CONSTRAINT "campaign_invitations_token_id_campaign_id_pk" PRIMARY KEY("token_id","campaign_id")
);
--> statement-breakpoint
CREATE TABLE "sign_in_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"unknown_emails" text DEFAULT 'refuse' NOT NULL,
	"join_roles" "role"[] DEFAULT '{expert}'::role[] NOT NULL,
	"password_sign_in" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_settings_one_row" CHECK ("sign_in_settings"."id" = 1),
	CONSTRAINT "sign_in_settings_unknown" CHECK ("sign_in_settings"."unknown_emails" in ('refuse', 'join')),
	CONSTRAINT "sign_in_settings_join_roles" CHECK (cardinality("sign_in_settings"."join_roles") >= 1)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oidc_issuer" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oidc_subject" text;--> statement-breakpoint
ALTER TABLE "campaign_invitations" ADD CONSTRAINT "campaign_invitations_token_id_account_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."account_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_invitations" ADD CONSTRAINT "campaign_invitations_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_invitations_campaign_idx" ON "campaign_invitations" USING btree ("campaign_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_oidc_identity_idx" ON "users" USING btree ("oidc_issuer","oidc_subject");