ALTER TABLE "experiments" ADD COLUMN "engine" text DEFAULT 'frequentist' NOT NULL;--> statement-breakpoint
ALTER TABLE "experiments" ADD COLUMN "cuped" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "experiments" ADD COLUMN "pre_period_days" integer DEFAULT 28 NOT NULL;--> statement-breakpoint
ALTER TABLE "experiments" ADD COLUMN "prior_mean" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "experiments" ADD COLUMN "prior_variance" double precision;--> statement-breakpoint
-- hand-written: the analysis settings' ranges, so no writer can store a setting the engine cannot use.
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_engine_check" CHECK ("engine" in ('frequentist', 'bayesian'));--> statement-breakpoint
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_pre_period_days_check" CHECK ("pre_period_days" between 1 and 365);--> statement-breakpoint
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_prior_variance_check" CHECK ("prior_variance" is null or "prior_variance" > 0);
