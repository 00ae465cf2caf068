//! The servers the checks and timings talk to: an axum application with a
//! few routes (one behind tower's concurrency limit) and a bare hyper
//! server, both on loopback and both stopped through a CancellationToken.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use serde::{Deserialize, Serialize};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tower::limit::ConcurrencyLimitLayer;

/// How many requests tower's limit lets into `/limited` at once.
pub const LIMIT: usize = 2;

/// The body of `/plain` (both servers).
pub const PLAIN: &str = "hello from the ecosystem fixture";

/// The body of `/json`.
#[derive(Serialize, Deserialize, Debug, PartialEq, Eq)]
pub struct Info {
    /// A fixed name.
    pub name: String,
    /// A fixed list.
    pub numbers: Vec<u32>,
}

impl Info {
    /// The value `/json` answers with.
    pub fn expected() -> Info {
        Info {
            name: "fixture".to_string(),
            numbers: vec![1, 2, 3, 5, 8],
        }
    }
}

/// How many requests are inside `/limited` now, and the most there were.
#[derive(Default)]
pub struct Gauge {
    inside: AtomicUsize,
    most: AtomicUsize,
}

impl Gauge {
    /// The most requests that were inside `/limited` at once.
    pub fn most(&self) -> usize {
        self.most.load(Ordering::SeqCst)
    }
}

/// A running server: its address, the token that stops it, and its task.
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Cancelling it starts a graceful shutdown.
    pub token: CancellationToken,
    /// Ends once every connection is closed.
    pub task: JoinHandle<std::io::Result<()>>,
}

/// The axum application.
pub fn app(gauge: Arc<Gauge>) -> Router {
    Router::new()
        .route("/plain", get(|| async { PLAIN }))
        .route("/json", get(|| async { Json(Info::expected()) }))
        .route("/echo", post(|body: Bytes| async move { body }))
        .route(
            "/limited",
            get(limited).layer(ConcurrencyLimitLayer::new(LIMIT)),
        )
        .with_state(gauge)
}

/// Counts the requests inside at once; the short sleep lets them overlap
/// when the limit does not hold them back.
async fn limited(State(gauge): State<Arc<Gauge>>) -> &'static str {
    let now = gauge.inside.fetch_add(1, Ordering::SeqCst) + 1;
    gauge.most.fetch_max(now, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(2)).await;
    gauge.inside.fetch_sub(1, Ordering::SeqCst);
    "limited"
}

/// Serves `app` on a loopback port until its token is cancelled.
pub async fn start_axum(app: Router) -> std::io::Result<Running> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let token = CancellationToken::new();
    let stop = token.clone().cancelled_owned();
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(stop)
            .await
    });
    Ok(Running { addr, token, task })
}

/// A bare hyper HTTP/1 server: `/echo` returns the body, anything else
/// [`PLAIN`]. Shuts down gracefully through hyper-util's GracefulShutdown.
pub async fn start_hyper() -> std::io::Result<Running> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let token = CancellationToken::new();
    let stop = token.clone();
    let task = tokio::spawn(async move {
        let graceful = GracefulShutdown::new();
        loop {
            let (stream, _) = tokio::select! {
                accepted = listener.accept() => accepted?,
                () = stop.cancelled() => break,
            };
            stream.set_nodelay(true)?;
            let conn = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service_fn(hyper_service));
            let conn = graceful.watch(conn);
            tokio::spawn(async move {
                let _ = conn.await;
            });
        }
        drop(listener);
        graceful.shutdown().await;
        Ok(())
    });
    Ok(Running { addr, token, task })
}

async fn hyper_service(req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let body = if req.uri().path() == "/echo" {
        match req.into_body().collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(e) => Bytes::from(format!("body error: {e}")),
        }
    } else {
        Bytes::from_static(PLAIN.as_bytes())
    };
    Ok(Response::new(Full::new(body)))
}
