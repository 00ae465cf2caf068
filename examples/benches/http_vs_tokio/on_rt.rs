//! The `http` example's server and the wrk driver compiled against rt.

use rt as tk;

#[path = "../runtime/workloads/build.rs"]
mod build;
#[path = "../../examples/http/request.rs"]
mod request;
#[path = "../../examples/http/server.rs"]
mod server;
#[path = "under_wrk.rs"]
pub mod under_wrk;
