#include "gui/VtkWidget.h"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>

#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>

namespace rdt::gui {

VtkWidget::VtkWidget(QWidget* parent)
    : QOpenGLWidget(parent), m_window(vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New()),
      m_interactor(vtkSmartPointer<vtkGenericRenderWindowInteractor>::New()),
      m_renderer(vtkSmartPointer<vtkRenderer>::New())
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(false);
    // VTK draws into its own framebuffers; we blit its display framebuffer in paintGL.
    m_window->SetReadyForRendering(false);
    m_window->SetFrameBlitModeToNoBlit();
    m_window->AddRenderer(m_renderer);
    m_interactor->SetRenderWindow(m_window);
    vtkNew<vtkInteractorStyleTrackballCamera> style;
    m_interactor->SetInteractorStyle(style);
    // Renders requested by the interactor become Qt repaints.
    m_interactor->EnableRenderOff();
    auto renderCb = vtkSmartPointer<vtkCallbackCommand>::New();
    renderCb->SetCallback(&VtkWidget::onRenderRequest);
    renderCb->SetClientData(this);
    m_interactor->AddObserver(vtkCommand::RenderEvent, renderCb);

    auto makeCurrent = vtkSmartPointer<vtkCallbackCommand>::New();
    makeCurrent->SetCallback(&VtkWidget::onMakeCurrent);
    makeCurrent->SetClientData(this);
    m_window->AddObserver(vtkCommand::WindowMakeCurrentEvent, makeCurrent);
    auto isCurrent = vtkSmartPointer<vtkCallbackCommand>::New();
    isCurrent->SetCallback(&VtkWidget::onIsCurrent);
    isCurrent->SetClientData(this);
    m_window->AddObserver(vtkCommand::WindowIsCurrentEvent, isCurrent);
}

VtkWidget::~VtkWidget()
{
    // Release VTK's GL resources while the context still exists.
    if (m_ready && context()) {
        makeCurrent();
        m_window->Finalize();
        doneCurrent();
    }
}

void VtkWidget::onMakeCurrent(vtkObject*, unsigned long, void* self, void*)
{
    auto* w = static_cast<VtkWidget*>(self);
    // QOpenGLContext::makeCurrent, not QOpenGLWidget::makeCurrent: the latter rebinds Qt's
    // framebuffer behind VTK's state cache and leaves VTK's framebuffers incomplete.
    if (QOpenGLContext* ctx = w->context(); ctx && QOpenGLContext::currentContext() != ctx)
        ctx->makeCurrent(ctx->surface());
}

void VtkWidget::onIsCurrent(vtkObject*, unsigned long, void* self, void* callData)
{
    auto* w = static_cast<VtkWidget*>(self);
    *static_cast<bool*>(callData) = w->context() && QOpenGLContext::currentContext() == w->context();
}

void VtkWidget::onRenderRequest(vtkObject*, unsigned long, void* self, void*)
{
    static_cast<VtkWidget*>(self)->update();
}

void VtkWidget::initializeGL()
{
    if (!context() || !context()->isValid())
        return; // no GL (e.g. offscreen platform): the widget stays blank
    m_window->SetOwnContext(false);
    m_window->SetIsCurrent(true);
    m_window->GetState()->Reset();
    m_window->GetState()->Push();
    m_window->OpenGLInitContext();
    m_window->GetState()->vtkglDepthFunc(GL_LEQUAL);
    m_window->SetReadyForRendering(true);
    m_ready = true;
    const qreal dpr = devicePixelRatioF();
    m_window->SetSize(static_cast<int>(width() * dpr), static_cast<int>(height() * dpr));
}

void VtkWidget::resizeGL(int w, int h)
{
    const qreal dpr = devicePixelRatioF();
    const int pw = static_cast<int>(w * dpr), ph = static_cast<int>(h * dpr);
    m_window->SetSize(pw, ph);
    m_interactor->SetSize(pw, ph);
    m_interactor->ConfigureEvent();
}

void VtkWidget::paintGL()
{
    if (!m_ready)
        return;
    vtkOpenGLState* state = m_window->GetState();
    state->Reset();
    state->Push();
    m_window->SetReadyForRendering(true);
    m_window->Render();

    // Blit VTK's display framebuffer into Qt's, then make alpha opaque for the compositor.
    const qreal dpr = devicePixelRatioF();
    const int w = static_cast<int>(width() * dpr), h = static_cast<int>(height() * dpr);
    QOpenGLExtraFunctions* f = context()->extraFunctions();
    state->PushReadFramebufferBinding();
    state->PushDrawFramebufferBinding();
    m_window->GetDisplayFramebuffer()->Bind(GL_READ_FRAMEBUFFER);
    m_window->GetDisplayFramebuffer()->ActivateReadBuffer(0);
    state->vtkglBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
    state->vtkglDrawBuffer(GL_COLOR_ATTACHMENT0);
    state->vtkglViewport(0, 0, w, h);
    state->vtkglScissor(0, 0, w, h);
    f->glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    state->vtkglColorMask(false, false, false, true);
    state->vtkglClearColor(0, 0, 0, 1);
    f->glClear(GL_COLOR_BUFFER_BIT);
    state->vtkglColorMask(true, true, true, true);
    state->PopDrawFramebufferBinding();
    state->PopReadFramebufferBinding();
    state->Pop();
}

void VtkWidget::forward(QMouseEvent* e, unsigned long vtkEvent)
{
    const qreal dpr = devicePixelRatioF();
    const QPointF p = e->position() * dpr;
    m_interactor->SetEventInformationFlipY(static_cast<int>(p.x()), static_cast<int>(p.y()),
                                           (e->modifiers() & Qt::ControlModifier) ? 1 : 0,
                                           (e->modifiers() & Qt::ShiftModifier) ? 1 : 0);
    m_interactor->InvokeEvent(vtkEvent, e);
}

void VtkWidget::mousePressEvent(QMouseEvent* e)
{
    m_pressAt = e->position().toPoint();
    m_dragged = false;
    const unsigned long ev = e->button() == Qt::LeftButton    ? vtkCommand::LeftButtonPressEvent
                             : e->button() == Qt::RightButton ? vtkCommand::RightButtonPressEvent
                                                              : vtkCommand::MiddleButtonPressEvent;
    forward(e, ev);
}

void VtkWidget::mouseMoveEvent(QMouseEvent* e)
{
    if ((e->position().toPoint() - m_pressAt).manhattanLength() > 3)
        m_dragged = true;
    forward(e, vtkCommand::MouseMoveEvent);
}

void VtkWidget::mouseReleaseEvent(QMouseEvent* e)
{
    const unsigned long ev = e->button() == Qt::LeftButton    ? vtkCommand::LeftButtonReleaseEvent
                             : e->button() == Qt::RightButton ? vtkCommand::RightButtonReleaseEvent
                                                              : vtkCommand::MiddleButtonReleaseEvent;
    forward(e, ev);
    if (e->button() == Qt::LeftButton && !m_dragged) {
        const qreal dpr = devicePixelRatioF();
        Q_EMIT clicked(static_cast<int>(e->position().x() * dpr),
                       static_cast<int>((height() - e->position().y()) * dpr));
    }
}

void VtkWidget::wheelEvent(QWheelEvent* e)
{
    const qreal dpr = devicePixelRatioF();
    const QPointF p = e->position() * dpr;
    m_interactor->SetEventInformationFlipY(static_cast<int>(p.x()), static_cast<int>(p.y()));
    m_interactor->InvokeEvent(
        e->angleDelta().y() > 0 ? vtkCommand::MouseWheelForwardEvent : vtkCommand::MouseWheelBackwardEvent, e);
}

void VtkWidget::keyPressEvent(QKeyEvent* e)
{
    // Keys stay with Qt (shortcuts); VTK's default key bindings (wireframe, quit) are not wanted.
    QOpenGLWidget::keyPressEvent(e);
}

} // namespace rdt::gui
