#pragma once
/// \file VtkWidget.h
/// Hosts a vtkGenericOpenGLRenderWindow in a Qt6 QOpenGLWidget (Debian's VTK Qt module is
/// built against Qt5, so rdt carries its own host; recipe in ARCHITECTURE.md). Mouse, wheel
/// and key events go to a vtkGenericRenderWindowInteractor; a click without drag is reported
/// as `clicked()` for picking. Tolerates a missing GL context (renders nothing).

#include <QOpenGLWidget>
#include <QPoint>

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkNew.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>

class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkRenderer;
class vtkObject;

namespace rdt::gui {

class VtkWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit VtkWidget(QWidget* parent = nullptr);
    ~VtkWidget() override;

    vtkRenderer* renderer() const { return m_renderer; }
    vtkGenericOpenGLRenderWindow* renderWindow() const { return m_window; }
    /// True once initializeGL ran with a working context.
    bool ready() const { return m_ready; }

Q_SIGNALS:
    /// A left click that did not move the mouse (device pixels, VTK's origin bottom-left).
    void clicked(int x, int y);

protected:
    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;

private:
    void forward(QMouseEvent* e, unsigned long vtkEvent);
    static void onMakeCurrent(vtkObject*, unsigned long, void* self, void*);
    static void onIsCurrent(vtkObject*, unsigned long, void* self, void* callData);
    static void onRenderRequest(vtkObject*, unsigned long, void* self, void*);

    vtkSmartPointer<vtkGenericOpenGLRenderWindow> m_window;
    vtkSmartPointer<vtkGenericRenderWindowInteractor> m_interactor;
    vtkSmartPointer<vtkRenderer> m_renderer;
    bool m_ready = false;
    QPoint m_pressAt;
    bool m_dragged = false;
};

} // namespace rdt::gui
