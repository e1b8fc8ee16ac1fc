import cliProgress from "cli-progress";

/** Plain progress lines start this long after the work (a short command stays silent). */
const QUIET_MS = 2_000;
/** …and come at most this often. */
const LINE_MS = 1_000;

/**
 * Progress on stderr: a bar when it is a terminal; otherwise plain lines ("label: done/total"), only
 * once the work has taken 2 s and then at most one a second, so logs of short runs stay clean.
 */
export function progressBar(label: string) {
  if (!process.stderr.isTTY) return progressLines(label);
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

function progressLines(label: string) {
  const started = Date.now();
  let last = 0;
  return {
    update(done: number, total: number) {
      const now = Date.now();
      if (now - started < QUIET_MS || (now - last < LINE_MS && done < total)) return;
      last = now;
      process.stderr.write(`${label}: ${done}/${total}\n`);
    },
    stop: () => {},
  };
}
