//! The playground's URL-state decoder (the web layer's `csc::bindings::url_state`): any query string a link can carry must
//! decode to a valid state or a readable error, `decode_lossy` must never fail, and an accepted
//! state must round-trip through `encode` exactly.
#![no_main]

use csc_web::bindings::url_state::{decode, decode_lossy, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let query = String::from_utf8_lossy(data);
    if let Ok(s) = decode(&query) {
        s.validate().expect("a decoded state is valid");
        let back = encode(&s).expect("a valid state encodes");
        assert_eq!(decode(&back).expect("an encoded state decodes"), s, "query {back:?}");
    }
    let (s, _problems) = decode_lossy(&query);
    s.validate().expect("the lossy decode gives a valid state");
});
