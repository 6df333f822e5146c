//! The keywords, grouped by the BSON type family they restrict. Each family parses its
//! keywords with mongod's rules, decides (`matches`, allocation-free) and explains a failure
//! (`explain`, building mongod's `errInfo` entries).

pub(crate) mod array;
pub(crate) mod encrypt;
pub(crate) mod logic;
pub(crate) mod number;
pub(crate) mod object;
pub(crate) mod string;
