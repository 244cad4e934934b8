import React, { useEffect, useLayoutEffect, useMemo, useState, useReducer } from "react";
import * as R from "react";
import { useEffect as useMountEffect } from "react";
import { useEffect as useLocalEffect } from "./hooks";

function track() { return 0; }
function measure() { return 1; }
function compute() { return 2; }
function initial() { return 3; }
function reducer(state, action) { return state + action; }
function init(n) { return n; }
function log() { return 4; }
function remember() { return 5; }
function mounted() { return 6; }
function ignored() { return 7; }

export function Panel() {
  useEffect(() => { track(); }, []);
  useLayoutEffect(measure, []);
  const v = useMemo(() => compute(), []);
  const [s] = useState(initial);
  const [n, dispatch] = useReducer(reducer, 0, init);
  React.useEffect(() => log());
  R.useMemo(remember, []);
  useMountEffect(mounted, []);
  useLocalEffect(ignored);
  return <p onClick={() => dispatch(1)}>{v}{s}{n}</p>;
}
