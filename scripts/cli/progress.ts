import cliProgress from "cli-progress";

/** A progress bar on stderr when it is a terminal; silent otherwise, so piped output stays clean. */
export function progressBar(label: string) {
  if (!process.stderr.isTTY) return { update: (_done: number, _total: number) => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {percentage}% | {value}/{total}`,
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done: number, total: number) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
