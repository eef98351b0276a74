/** A member as the server hands it out (never the password hash). */
export interface MemberProfile {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  birthday: string | null;
  scopes: string[];
  createdAt: string;
}

export interface AuthUserShape {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  scopes: string[];
}

export interface Address {
  id: string;
  recipientName: string;
  phone: string;
  line1: string;
  subdistrict: string;
  district: string;
  province: string;
  postcode: string;
  isDefault: boolean;
}
