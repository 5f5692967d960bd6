//! The one list of the datasets a reader can pick ([`DATASETS`]): the three built in and the
//! user's own file, with labels, documentation and references. `csc list`, the page's dataset menu
//! (`datasets()`) and the URL codec's dataset ids (`bindings::url_state::PageDataset`, checked
//! against this list by `tests/catalog_lists.rs`) read it.

use serde::Serialize;

/// One dataset as a reader sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DatasetEntry {
    /// The id of the CLI (`--dataset`), definitions and the page's link (`upload`: the user's file).
    pub id: &'static str,
    /// A short label for a menu.
    pub label: &'static str,
    /// One line: what the queries are.
    pub doc: &'static str,
    /// Its arrival model when none is named (an id of `stream::ARRIVALS`).
    pub arrival: &'static str,
    /// The paper's numbering and/or `SPEC-NOTES#anchor` (as `config::ParamInfo`).
    pub reference: &'static str,
}

/// Every dataset, in menu order.
pub const DATASETS: &[DatasetEntry] = &[
    DatasetEntry {
        id: "synthetic",
        label: "synthetic (384-d)",
        doc: "The 50 prompts written for this project, of varied length; arrivals are jittered prompts.",
        arrival: "uniform",
        reference: "§6; SPEC-NOTES#geometry-costs-datasets",
    },
    DatasetEntry {
        id: "plane",
        label: "plane (2-D)",
        doc: "A 2-D universe with a continuous density and cost surface, drawn as it is.",
        arrival: "plane",
        reference: "SPEC-NOTES#geometry-costs-datasets",
    },
    DatasetEntry {
        id: "nq-trivia",
        label: "nq-trivia (real questions, 384-d)",
        doc: "2,500 Natural Questions and 2,500 TriviaQA questions; bursty arrivals alternate between the two.",
        arrival: "bursty",
        reference: "§6; SPEC-NOTES#arrival-models",
    },
    DatasetEntry {
        id: "upload",
        label: "your data (load a file)",
        doc: "A JSONL of {text, tokens, embedding} (or with a float32 embedding file), read in this browser only.",
        arrival: "uniform",
        reference: "SPEC-NOTES#geometry-costs-datasets",
    },
];
