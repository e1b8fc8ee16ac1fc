export { writeBackup, type BackupSummary } from "./write";
export { restoreBackup, type RestoreSummary } from "./restore";
export { BackupError, type ArchiveHeader } from "./format";
