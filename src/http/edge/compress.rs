//! actix-web's `Compress`, entered only by requests that name an encoding they accept.
//!
//! Without an `Accept-Encoding` header `Compress` answers with the body as it is (identity,
//! no `Vary`), yet still wraps the answer's future and body and parses its content type to
//! decide so: about a tenth of what a small answer costs us (docs/benchmarks.md). Such a
//! request goes straight to the app here, with the very answer `Compress` would have given.

use actix_http::encoding::Encoder;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::http::header;
use actix_web::middleware::Compress;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

/// What the answer's body is: compressed as negotiated, or the app's own.
type Body<B> = EitherBody<EitherBody<Encoder<B>>, B>;

#[derive(Clone, Copy, Default)]
pub struct Negotiated;

impl<S, B> Transform<S, ServiceRequest> for Negotiated
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<Body<B>>;
    type Error = actix_web::Error;
    type Transform =
        NegotiatedService<S, <Compress as Transform<Shared<S>, ServiceRequest>>::Transform>;
    type InitError = ();
    type Future = Pin<Box<dyn Future<Output = Result<Self::Transform, ()>>>>;

    fn new_transform(&self, service: S) -> Self::Future {
        let app = Shared(Rc::new(service));
        Box::pin(async move {
            let compress = Compress::default().new_transform(app.clone()).await?;
            Ok(NegotiatedService { app, compress })
        })
    }
}

/// The app, reachable both through `Compress` and directly.
pub struct Shared<S>(Rc<S>);

impl<S> Clone for Shared<S> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<S: Service<ServiceRequest>> Service<ServiceRequest> for Shared<S> {
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&self, req: ServiceRequest) -> Self::Future {
        self.0.call(req)
    }
}

/// `C` is `Compress`'s own service over the shared app (a type actix-web does not name).
pub struct NegotiatedService<S, C> {
    app: Shared<S>,
    compress: C,
}

impl<S, C, B> Service<ServiceRequest> for NegotiatedService<S, C>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    C: Service<
        ServiceRequest,
        Response = ServiceResponse<EitherBody<Encoder<B>>>,
        Error = actix_web::Error,
    >,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<Body<B>>;
    type Error = actix_web::Error;
    type Future = Answer<C::Future, S::Future, B>;

    fn poll_ready(&self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.app.poll_ready(cx)
    }

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let way = if req.headers().contains_key(header::ACCEPT_ENCODING) {
            Way::Compressed {
                fut: self.compress.call(req),
            }
        } else {
            Way::Plain {
                fut: self.app.call(req),
            }
        };
        Answer {
            way,
            _body: PhantomData,
        }
    }
}

pin_project_lite::pin_project! {
    #[project = WayProj]
    enum Way<C, A> {
        Compressed { #[pin] fut: C },
        Plain { #[pin] fut: A },
    }
}

pin_project_lite::pin_project! {
    pub struct Answer<C, A, B> {
        #[pin]
        way: Way<C, A>,
        _body: PhantomData<B>,
    }
}

impl<C, A, B> Future for Answer<C, A, B>
where
    C: Future<Output = Result<ServiceResponse<EitherBody<Encoder<B>>>, actix_web::Error>>,
    A: Future<Output = Result<ServiceResponse<B>, actix_web::Error>>,
    B: MessageBody,
{
    type Output = Result<ServiceResponse<Body<B>>, actix_web::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project().way.project() {
            WayProj::Compressed { fut } => fut
                .poll(cx)
                .map(|res| res.map(ServiceResponse::map_into_left_body)),
            WayProj::Plain { fut } => fut
                .poll(cx)
                .map(|res| res.map(ServiceResponse::map_into_right_body)),
        }
    }
}
