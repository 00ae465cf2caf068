//! The pooled HTTP clients (hyper-util's legacy client and reqwest) and
//! one request helper each, shared by the smoke checks and the timings.

use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request, StatusCode};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

/// hyper-util's pooled HTTP/1 client.
pub type HyperClient = Client<HttpConnector, Full<Bytes>>;

/// A new pooled hyper-util client.
pub fn hyper_client() -> HyperClient {
    let mut connector = HttpConnector::new();
    connector.set_nodelay(true);
    Client::builder(TokioExecutor::new()).build(connector)
}

/// A new pooled reqwest client (no TLS, no proxy lookups).
pub fn reqwest_client() -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .no_proxy()
        .tcp_nodelay(true)
        .build()
        .map_err(|e| format!("reqwest client: {e}"))
}

/// One request through the hyper-util client: the status and whole body.
pub async fn hyper_call(
    client: &HyperClient,
    addr: SocketAddr,
    method: Method,
    path: &str,
    body: Bytes,
) -> Result<(StatusCode, Bytes), String> {
    let request = Request::builder()
        .method(method)
        .uri(format!("http://{addr}{path}"))
        .body(Full::new(body))
        .map_err(|e| format!("building a request for {path}: {e}"))?;
    let response = client
        .request(request)
        .await
        .map_err(|e| format!("hyper-util client, {path}: {e}"))?;
    let status = response.status();
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|e| format!("hyper-util client, {path}: reading the body: {e}"))?
        .to_bytes();
    Ok((status, body))
}
