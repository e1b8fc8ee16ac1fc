import { json } from "@remix-run/node";
import { ConvenerError } from "../../db/convener";

/** A convener-side failure as the HTTP answer it deserves (403 not yours, 404 not in list, 409 full or finished). */
export async function convenerCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ConvenerError) throw json({ message: error.message }, { status: error.status });
    throw error;
  }
}
