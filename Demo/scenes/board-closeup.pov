// A close look at the 2012 board: the processor socket, its capacitors and four memory slots.
#include "common.inc"

camera { location <-14, 30, -30> look_at <2, 0, 2> angle 40 }
Daylight(<-120, 200, -90>, 1.2)
Fill(<60, 80, -120>, 0.3)

// The board: green solder mask over copper traces.
box { <-40, -1, -30>, <40, 0, 40> pigment { rgb <0.06, 0.3, 0.14> } finish { specular 0.5 roughness 0.02 diffuse 0.7 } }
#for (I, 0, 60)
  box { <-40, 0, -29 + I * 1.1>, <40, 0.02, -28.85 + I * 1.1> pigment { rgb <0.14, 0.42, 0.22> } finish { specular 0.4 } }
#end
// The socket: a frame, its lever, and the grid of contacts.
box { <-9, 0, -9>, <9, 1.2, 9> pigment { rgb 0.85 } finish { specular 0.3 } }
difference {
  box { <-8, 1.2, -8>, <8, 1.6, 8> }
  box { <-7, 1.0, -7>, <7, 2, 7> }
  texture { Steel }
}
#for (X, -6, 6) #for (Z, -6, 6)
  sphere { <X, 1.25, Z>, 0.18 pigment { rgb <0.85, 0.7, 0.3> } finish { specular 0.8 metallic } }
#end #end
cylinder { <9.5, 1, -8>, <9.5, 1, 8>, 0.25 texture { Steel } }
// Capacitors around it.
#for (I, 0, 5)
  union {
    cylinder { <0, 0, 0>, <0, 3.2, 0>, 0.9 pigment { rgb <0.12, 0.12, 0.14> } finish { specular 0.6 } }
    cylinder { <0, 3.2, 0>, <0, 3.3, 0>, 0.8 texture { Steel } }
    translate <-12, 0, -7 + I * 2.6>
  }
#end
// Four memory slots.
#for (S, 0, 3)
  union {
    box { <0, 0, 0>, <1.6, 1.8, 28> pigment { #if (mod(S, 2) = 0) rgb <0.1, 0.2, 0.6> #else rgb 0.1 #end } finish { specular 0.4 } }
    box { <0.6, 1.6, 0.8>, <1.0, 1.85, 27.2> pigment { rgb 0.02 } }
    translate <15 + S * 3, 0, -12>
  }
#end
// One module of memory in the first slot.
box { <15.3, 1.8, -11.6>, <15.9, 8, 15.6> pigment { rgb <0.05, 0.32, 0.15> } finish { specular 0.4 } }
#for (C, 0, 7) box { <15.1, 3.5, -10.5 + C * 3.3>, <15.3, 6.5, -8.2 + C * 3.3> pigment { rgb 0.08 } finish { specular 0.5 } } #end
// A small chip and a header, farther away.
box { <-30, 0, 20>, <-20, 1, 30> pigment { rgb 0.1 } finish { specular 0.5 } }
#for (P, 0, 11) box { <-4 + P * 1.2, 0, 24>, <-3.6 + P * 1.2, 2.4, 24.4> pigment { rgb <0.9, 0.8, 0.4> } finish { metallic specular 0.8 } } #end
