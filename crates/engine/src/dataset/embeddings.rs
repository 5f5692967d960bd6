//! The embeddings of a dataset file (SPEC §7 "User data", `shared/data/README.md`): the binary
//! layout (raw little-endian `f32`, row-major, N × d, no header) read against its JSONL records,
//! embeddings inline in the records, and the unit-norm check. Every problem is one
//! [`Error::File`] naming the row and its record's line ("row 6 = line 7").

use super::fields::at;
use super::records::Record;
use crate::error::{Error, Result};
use crate::space::Points;

/// Parses the binary embedding layout: raw little-endian `f32`, row-major, `dim` per row.
pub fn parse_embeddings(bytes: &[u8], dim: usize) -> Result<Points> {
    if dim == 0 {
        return Err(Error::param("dim", "the embedding dimension must be at least 1"));
    }
    let row = dim * 4;
    if bytes.is_empty() {
        return Err(Error::at("", "the embedding file is empty; expected N × d little-endian f32 values"));
    }
    if !bytes.len().is_multiple_of(row) {
        return Err(Error::at(
            "",
            format!(
                "{} bytes is not a whole number of {dim}-float rows ({row} bytes each); is it truncated, or is the dimension not {dim}?",
                bytes.len()
            ),
        ));
    }
    let data: Vec<f32> =
        bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    if let Some(k) = data.iter().position(|x| !x.is_finite()) {
        return Err(Error::at(
            format!("row {}", k / dim),
            format!(
                "coordinate {} is {} (non-finite); every value must be finite — recompute this embedding",
                k % dim,
                data[k]
            ),
        ));
    }
    Points::from_flat(dim, data)
}

/// The dimensions `d` under which a file of `bytes` holds exactly `n` rows.
fn fitting_dim(bytes: usize, n: usize) -> Option<usize> {
    (n > 0 && bytes.is_multiple_of(4 * n)).then(|| bytes / (4 * n))
}

/// Embeddings for `records`: from the binary file if given (row i = record i, with exactly as
/// many rows as records), else from each record's `embedding` field. `dim` of the binary file
/// may be `None`: it is then the one under which the rows equal the records. Errors name the
/// binary file's row and the record's line; the caller names the file.
pub fn embeddings_for(records: &[Record], binary: Option<(&[u8], usize)>) -> Result<Points> {
    match binary {
        Some((bytes, dim)) => binary_for(records, "the JSONL", bytes, Some(dim)),
        None => inline_embeddings(records),
    }
}

/// [`embeddings_for`] with the binary file's dimension optional; `records_file` names the JSONL
/// in the messages.
pub fn binary_for(
    records: &[Record],
    records_file: &str,
    bytes: &[u8],
    dim: Option<usize>,
) -> Result<Points> {
    let n = records.len();
    let guess = fitting_dim(bytes.len(), n);
    let dim = match (dim, guess) {
        (Some(d), _) => d,
        (None, Some(d)) if d > 0 => d,
        (None, _) => {
            return Err(Error::at(
                "",
                format!(
                    "{} bytes do not divide into {n} rows of f32 (one per record of {records_file}); give the dimension (--dim) and check the files belong together",
                    bytes.len()
                ),
            ))
        }
    };
    let suggest =
        |g: usize| format!("; {n} rows of {g} floats would fit exactly — is the dimension {g} (--dim {g})?");
    // whole rows of another size: that size is the likely dimension
    let any_hint = guess.filter(|&g| g != dim && g > 0).map_or(String::new(), suggest);
    // whole rows of the declared size but not one per record: another dimension is likely only
    // when it is a multiple or a divisor of the declared one (768 read as 384, …)
    let hint = match guess {
        Some(g) if g != dim && g > 0 && dim > 0 && (g % dim == 0 || dim % g == 0) => {
            format!("; {n} rows of {g} floats would fit exactly — is the dimension {g} (--dim {g})?")
        }
        _ => String::new(),
    };
    if dim > 0 && !bytes.is_empty() && !bytes.len().is_multiple_of(dim * 4) {
        return Err(Error::at(
            "",
            format!(
                "{} bytes is not a whole number of {dim}-float rows ({} bytes each){}",
                bytes.len(),
                dim * 4,
                if any_hint.is_empty() { "; is it truncated?".to_string() } else { any_hint }
            ),
        ));
    }
    let p = parse_embeddings(bytes, dim).map_err(|e| match e {
        Error::File { file, at, msg } if at.starts_with("row ") => {
            let r: usize = at[4..].parse().unwrap_or(0);
            let line =
                records.get(r).map_or(String::new(), |rec| format!(" = line {} of {records_file}", rec.line));
            Error::File { file, at: format!("{at}{line}"), msg }
        }
        e => e,
    })?;
    if p.len() != n {
        let fix = if p.len() > n {
            format!("remove the extra rows {}–{} or add their records", n, p.len() - 1)
        } else {
            format!("add the missing rows {}–{} or remove their records", p.len(), n - 1)
        };
        return Err(Error::at(
            "",
            format!(
                "{} has {} records but {}{} embedding rows of {dim} floats are in this file; the rows must equal the records exactly{}",
                records_file,
                n,
                if p.len() < n { "only " } else { "" },
                p.len(),
                if hint.is_empty() { format!(" — {fix}") } else { hint }
            ),
        ));
    }
    Ok(p)
}

/// How far from 1 a row's Euclidean norm may be and still count as unit-norm.
const UNIT_NORM_TOLERANCE: f64 = 1e-3;

/// SPEC §1: text embeddings are L2-normalised, and the distance `‖x − y‖₂ / D` is read on that
/// sphere (the synthetic arrival model jitters a row and renormalises it, SPEC §7, which moves a
/// row of another norm by the renormalisation alone and leaves its σ_e uncalibratable). Rows
/// that are not unit-norm are therefore normalised to unit length, and the returned note says
/// so with every result (the page shows it with "Loaded"): a sentence embedding's direction is
/// what it means — cosine similarity, which scaling a row does not change. Refused, with the
/// fix: a row of norm 0 (it has no direction), and rows not of unit norm when the dimension of a
/// binary file was inferred from its size (the inference was then almost surely wrong: a file
/// holding every embedding twice reads as rows of twice the dimension, each of norm √2).
pub fn unit_norm(records: &[Record], points: Points, dim_inferred: bool) -> Result<(Points, Vec<String>)> {
    let norms: Vec<f64> =
        points.iter().map(|r| r.iter().map(|&v| v as f64 * v as f64).sum::<f64>().sqrt()).collect();
    let off: Vec<usize> =
        (0..norms.len()).filter(|&i| (norms[i] - 1.0).abs() > UNIT_NORM_TOLERANCE).collect();
    let Some(&first) = off.first() else { return Ok((points, Vec::new())) };
    let (lo, hi) =
        off.iter().fold((f64::INFINITY, 0f64), |(lo, hi), &i| (lo.min(norms[i]), hi.max(norms[i])));
    let line = records.get(first).map_or(String::new(), |r| format!(" (line {})", r.line));
    if dim_inferred {
        return Err(Error::at(
            format!("row {first}{}", line.replace(" (", " = ").replace(')', "")),
            format!(
                "{} of {} rows are not unit-norm (norms {lo:.4} to {hi:.4}; this row {:.4}) under the inferred dimension {}: embeddings are L2-normalised (SPEC §1), so the dimension is probably not {} — does the file hold each embedding more than once, or belong to other records? Give the dimension (--dim d) if {} is right",
                off.len(),
                norms.len(),
                norms[first],
                points.dim(),
                points.dim(),
                points.dim()
            ),
        ));
    }
    if let Some(zero) = (0..norms.len()).find(|&i| norms[i] == 0.0) {
        let line = records.get(zero).map_or(String::new(), |r| format!(" = line {}", r.line));
        return Err(Error::at(
            format!("row {zero}{line}"),
            "the embedding is all zeros: it has no direction to normalise to unit length (SPEC §1) — give this record its embedding, or remove it",
        ));
    }
    let data: Vec<f32> = points
        .iter()
        .zip(&norms)
        .flat_map(|(r, &n)| {
            let unit = (n - 1.0).abs() > UNIT_NORM_TOLERANCE;
            r.iter().map(move |&v| if unit { (v as f64 / n) as f32 } else { v })
        })
        .collect();
    let points = Points::from_flat(points.dim(), data)?;
    Ok((
        points,
        vec![format!(
            "{} of {} embedding rows were not unit-norm (norms {lo:.4} to {hi:.4}, first row {first}{line}); they were normalised to unit length, as SPEC §1 assumes (their cosine similarities are unchanged)",
            off.len(),
            norms.len()
        )],
    ))
}

/// Embeddings from each record's `embedding` field (all present, all the same length).
pub fn inline_embeddings(records: &[Record]) -> Result<Points> {
    let first = &records[0];
    let dim = match &first.embedding {
        Some(e) => e.len(),
        None => {
            return Err(Error::at(
                at(first.line),
                "no `embedding`: give every record an `embedding` list, or supply the binary embedding file (--embeddings FILE --dim d)",
            ))
        }
    };
    let mut p = Points::new(dim)?;
    for (i, r) in records.iter().enumerate() {
        let e = r.embedding.as_ref().ok_or_else(|| {
            Error::at(
                at(r.line),
                format!(
                    "record {} has no `embedding` while the first record has one; give every record one",
                    i + 1
                ),
            )
        })?;
        if e.len() != dim {
            return Err(Error::at(
                at(r.line),
                format!(
                    "record {} has a {}-dimensional embedding but record 1 has {dim} dimensions; every embedding must have the same length",
                    i + 1,
                    e.len()
                ),
            ));
        }
        p.push(e)?;
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::records::parse_jsonl;

    #[test]
    fn inline_embeddings_of_jsonl_records() {
        let r = parse_jsonl("{\"text\":\"a\",\"tokens\":3,\"embedding\":[1,0]}\n\n{\"text\":\"b\",\"tokens\":5,\"embedding\":[0,1],\"id\":\"x\"}\n").unwrap();
        assert_eq!(embeddings_for(&r, None).unwrap().len(), 2);
        let ragged = parse_jsonl("{\"text\":\"a\",\"tokens\":1,\"embedding\":[1,0]}\n{\"text\":\"b\",\"tokens\":1,\"embedding\":[1]}").unwrap();
        assert!(embeddings_for(&ragged, None)
            .unwrap_err()
            .to_string()
            .contains("record 2 has a 1-dimensional"));
        let none = parse_jsonl("{\"text\":\"a\",\"tokens\":1}").unwrap();
        assert!(embeddings_for(&none, None).is_err());
    }

    #[test]
    fn parses_and_validates_binary() {
        let mut bytes = Vec::new();
        for v in [1.0f32, 0.0, 0.0, 1.0] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        let p = parse_embeddings(&bytes, 2).unwrap();
        assert_eq!(p.row(1), &[0.0, 1.0]);
        assert!(parse_embeddings(&bytes[..7], 2).unwrap_err().to_string().contains("truncated"));
        assert!(parse_embeddings(&[], 2).is_err());
        assert!(parse_embeddings(&bytes, 0).is_err());
        let mut nan = bytes.clone();
        nan[0..4].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(parse_embeddings(&nan, 2).unwrap_err().to_string().contains("non-finite"));
        let recs = parse_jsonl(
            "{\"text\":\"a\",\"tokens\":1}\n{\"text\":\"b\",\"tokens\":1}\n{\"text\":\"c\",\"tokens\":1}",
        )
        .unwrap();
        assert!(embeddings_for(&recs, Some((&bytes, 2)))
            .unwrap_err()
            .to_string()
            .contains("3 records but only 2 embedding rows"));
        // more rows than records is an error too, and the likely dimension is suggested
        let e = embeddings_for(&recs[..1], Some((&bytes, 2))).unwrap_err().to_string();
        assert!(e.contains("has 1 records but 2 embedding rows") && e.contains("--dim 4"), "{e}");
        assert_eq!(binary_for(&recs[..2], "x.jsonl", &bytes, None).unwrap().dim(), 2);
    }
}
