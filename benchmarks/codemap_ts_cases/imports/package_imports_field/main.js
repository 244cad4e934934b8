import { connect } from "#db";
import { helper } from "#lib/util";

export function run() {
  return connect() + helper();
}

run();
