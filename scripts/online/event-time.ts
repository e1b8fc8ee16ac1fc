/**
 * An event's `at`, checked as PostgreSQL will store it in a `timestamptz` column, so that an event
 * that passes here is never refused by the database (a refusal used to fail the whole batch) and
 * means the same instant to JavaScript (`assay online`, Date.parse) and to PostgreSQL.
 */

// Date, T, hh:mm, optional :ss and 1–9 fraction digits, then the offset (or nothing, refused below).
const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
export const FIRST_YEAR = 2000;
export const LAST_YEAR = 2100;

const shown = (at: string) => JSON.stringify(at.length > 40 ? `${at.slice(0, 40)}…` : at);
const example = "such as 2025-03-01T10:00:00Z or 2025-03-01T11:00:00.250+01:00";

/**
 * Why `at` is not an event time, or null when it is one. The form is ISO 8601 / RFC 3339 as both
 * PostgreSQL and Date.parse read it alike: `YYYY-MM-DDThh:mm[:ss[.fraction]]` and an explicit UTC
 * offset (`Z` or `±hh:mm`; a time without one is read in the server's or the reader's time zone, so it
 * is refused). The date must be on the calendar (Gregorian leap years: 2000 yes, 2100 no), the
 * year 2000–2100, the time 00:00–23:59:59 or 24:00 exactly (PostgreSQL's end of the day, the next
 * day's midnight); seconds 60 (leap seconds) are refused: Date.parse does not read them. Offsets go
 * to ±15:59, PostgreSQL's limit. A fraction is kept to the microsecond by PostgreSQL (rounded), to the
 * millisecond by JavaScript.
 */
export function eventTimeProblem(at: string): string | null {
  const m = TIME.exec(at);
  if (m === null) return `at ${shown(at)} is not an ISO 8601 time with a UTC offset, ${example}`;
  const [, y, mo, d, h, mi, s, fraction, offset] = m;
  if (offset === undefined) return `at ${shown(at)} has no UTC offset: end it with Z or ±hh:mm, ${example}`;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < FIRST_YEAR || year > LAST_YEAR)
    return `at ${shown(at)} is in the year ${year}; events must be dated ${FIRST_YEAR} to ${LAST_YEAR}`;
  if (month < 1 || month > 12) return `at ${shown(at)} has month ${mo}; months run from 01 to 12`;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  if (day < 1 || day > days)
    return `at ${shown(at)} is not on the calendar: ${MONTHS[month - 1]} ${year} has ${days} days`;
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  const endOfDay = hour === 24 && minute === 0 && second === 0 && !/[1-9]/.test(fraction ?? "");
  if (!endOfDay && (hour > 23 || minute > 59 || second > 59)) {
    return `at ${shown(at)} is not a time of day: hours run 00–23, minutes and seconds 00–59 (24:00 only as the end of a day)`;
  }
  if (offset !== "Z" && (Number(offset.slice(1, 3)) > 15 || Number(offset.slice(4, 6)) > 59)) {
    return `at ${shown(at)} has the UTC offset ${offset}; offsets run from -15:59 to +15:59`;
  }
  return null;
}
